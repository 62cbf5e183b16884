import type { ReactElement, ReactNode } from 'react';
import { DeferredControl } from '@/components/deferred-control';
import { lazyComponent } from '@/lib/lazy-code';

const HintTooltip = lazyComponent(async () => (await import('./hint-tooltip')).HintTooltip);

/**
 * A tooltip (spec §9: opens after 700 ms) for a control of the visitors' pages, such as the theme
 * toggle. Its positioning code (Radix Tooltip with Floating UI, about 12 KB compressed) is not part
 * of the first page (issue 26): the control renders at once, and the tooltip wraps it once the
 * browser is idle after the first screen (DeferredControl: a control that has the keyboard focus
 * keeps it, and without the tooltip's code the control still works). The control's accessible
 * name never depends on the tooltip. Screens of the console use ui/tooltip directly.
 */
export function Hint({ label, children }: { label: ReactNode; children: ReactElement }) {
  // The control's own onClick is all a press does: there is nothing to open for it.
  return (
    <DeferredControl
      code={HintTooltip}
      button={() => children}
      full={() => <HintTooltip.Component label={label}>{children}</HintTooltip.Component>}
    />
  );
}
