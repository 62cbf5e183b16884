import { useState } from 'react';
import { Check, CircleAlert, CircleX, Copy } from 'lucide-react';
import type { CheckStatus, CheckSummary, DiagnosticCheck } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

const STATUS: Record<CheckStatus, { label: string; icon: typeof Check; className: string }> = {
  pass: { label: 'Pass', icon: Check, className: 'text-success' },
  warn: { label: 'Warning', icon: CircleAlert, className: 'text-warning' },
  fail: { label: 'Fail', icon: CircleX, className: 'text-destructive' },
};

/** A fix that is a shell command (sudo …, docker …) can be copied with one click. */
const COMMAND = /^(sudo |docker |echo |ollama |apt|nvidia-ctk )/;

function FixLine({ fix }: { fix: string }) {
  const [copied, setCopied] = useState(false);
  const isCommand = COMMAND.test(fix);
  return (
    <div className="mt-2 flex items-start gap-2 rounded-md bg-muted/60 px-3 py-2 text-sm">
      <span className="font-medium">Fix:</span>
      <span className={cn('min-w-0 flex-1 break-words', isCommand && 'font-mono text-xs leading-5')}>
        {fix}
      </span>
      {isCommand && navigator.clipboard ? (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-6"
          aria-label={copied ? 'Copied' : 'Copy the command'}
          onClick={() => {
            void navigator.clipboard.writeText(fix).then(() => setCopied(true));
          }}
        >
          {copied ? (
            <Check aria-hidden="true" className="size-3.5" />
          ) : (
            <Copy aria-hidden="true" className="size-3.5" />
          )}
        </Button>
      ) : null}
    </div>
  );
}

/** Findings of a check screen, each with its status word and, when it is not a pass, what to do. */
export function CheckList({ checks, label }: { checks: readonly DiagnosticCheck[]; label: string }) {
  return (
    <ul aria-label={label} className="divide-y rounded-lg border">
      {checks.map((check) => {
        const { icon: Icon, className, label: word } = STATUS[check.status];
        return (
          <li key={check.id} data-check={check.id} data-status={check.status} className="flex gap-3 p-4">
            <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', className)} />
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{check.title}</span>
                <Badge
                  variant={
                    check.status === 'pass' ? 'success' : check.status === 'warn' ? 'warning' : 'destructive'
                  }
                >
                  {word}
                </Badge>
              </div>
              <p className="mt-1 text-sm text-muted-foreground">{check.detail}</p>
              {check.fix ? <FixLine fix={check.fix} /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** "12 passed, 2 warnings, 1 failed" as badges. */
export function CheckSummaryBadges({ summary }: { summary: CheckSummary }) {
  return (
    <div className="flex flex-wrap gap-2" aria-label="Summary">
      <Badge variant="success">{summary.pass} passed</Badge>
      <Badge variant={summary.warn > 0 ? 'warning' : 'outline'}>
        {summary.warn} warning{summary.warn === 1 ? '' : 's'}
      </Badge>
      <Badge variant={summary.fail > 0 ? 'destructive' : 'outline'}>{summary.fail} failed</Badge>
    </div>
  );
}
