import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** The frame of a public page: a title block, then readable content. */
export function PublicPage({
  title,
  intro,
  children,
  className,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('mx-auto w-full max-w-4xl px-4 py-10 sm:py-14', className)}>
      <header className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
        {intro && <p className="max-w-2xl text-lg text-muted-foreground">{intro}</p>}
      </header>
      {children}
    </div>
  );
}

/** Long-form text: headings, paragraphs, lists and code with comfortable spacing. */
export function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'space-y-4 leading-relaxed',
        '[&_h2]:mt-10 [&_h2]:scroll-mt-20 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight',
        '[&_h3]:mt-6 [&_h3]:font-semibold',
        '[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
        '[&_p]:text-muted-foreground [&_li]:text-muted-foreground',
        '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-sm [&_code]:text-foreground',
        '[&_a]:font-medium [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** A question that opens to its answer; native details/summary keep it keyboard-accessible. */
export function Faq({ question, children }: { question: string; children: ReactNode }) {
  return (
    <details className="group rounded-lg border bg-card px-4 py-3 open:pb-4">
      <summary className="cursor-pointer list-none rounded-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background [&::-webkit-details-marker]:hidden">
        <span className="flex items-center justify-between gap-4">
          {question}
          <span
            aria-hidden="true"
            className="text-muted-foreground transition-transform group-open:rotate-45"
          >
            +
          </span>
        </span>
      </summary>
      <div className="mt-3 space-y-2 text-sm text-muted-foreground">{children}</div>
    </details>
  );
}
