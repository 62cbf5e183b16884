import { useId, useRef } from 'react';
import { cn } from '@/lib/utils';

/**
 * A plain YAML editor: a monospace textarea with a line-number gutter that scrolls with it, and the
 * line the agent refused marked. A full code editor is not worth its weight for a few dozen lines.
 */
export function YamlEditor({
  value,
  onChange,
  errorLine,
  label,
  describedBy,
}: {
  value: string;
  onChange: (value: string) => void;
  errorLine: number | null;
  label: string;
  describedBy?: string;
}) {
  const id = useId();
  const gutter = useRef<HTMLDivElement>(null);
  const lines = Math.max(1, value.split('\n').length);
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex max-h-[55vh] min-h-64 overflow-hidden rounded-md border bg-muted/30 font-mono text-sm focus-within:ring-2 focus-within:ring-ring">
        <div
          ref={gutter}
          aria-hidden="true"
          className="shrink-0 overflow-hidden border-r bg-muted/50 px-2 py-2 text-right text-muted-foreground select-none"
        >
          {Array.from({ length: lines }, (_, i) => (
            <div
              key={i}
              data-error-line={errorLine === i + 1 ? 'true' : undefined}
              className={cn(
                'leading-6',
                errorLine === i + 1 && 'rounded-sm bg-destructive/20 font-semibold text-destructive',
              )}
            >
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          id={id}
          value={value}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          wrap="off"
          aria-invalid={errorLine !== null}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          className="min-h-64 flex-1 resize-none bg-transparent px-3 py-2 leading-6 outline-none"
        />
      </div>
      <p className="text-xs text-muted-foreground">
        Tab indents two spaces. Shift+Tab moves to the next control.
      </p>
    </div>
  );
}
