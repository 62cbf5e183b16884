import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box takes keyboard focus so
 * people without a pointer can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table data-slot="table" className="w-full caption-bottom text-sm">
        {children}
      </table>
    </div>
  );
}
