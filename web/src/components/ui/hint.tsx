import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { useFocusCarry } from '@/components/deferred-control';
import { useBrowserIdle } from '@/lib/use-browser-idle';
import type { HintTooltip } from './hint-tooltip';

interface HintTooltipModule {
  HintTooltip: typeof HintTooltip;
}

let loaded: HintTooltipModule | undefined;
let loading: Promise<HintTooltipModule> | undefined;

/** One load of the tooltip's code for every hint on the page; a failed load may be tried again. */
function loadHintTooltip(): Promise<HintTooltipModule> {
  return (loading ??= import('./hint-tooltip').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
}

/**
 * A tooltip (spec §9: opens after 700 ms) for a control of the visitors' pages, such as the theme
 * toggle. Its positioning code (Radix Tooltip with Floating UI, about 12 KB compressed) is not part
 * of the first page (issue 26): the control renders at once, and the tooltip wraps it when the
 * browser is idle after the first screen and its code has arrived (a control that has the keyboard
 * focus then keeps it). The control's
 * accessible name never depends on the tooltip. Screens of the console use ui/tooltip directly.
 */
export function Hint({ label, children }: { label: ReactNode; children: ReactElement }) {
  const [module, setModule] = useState(loaded);
  const idle = useBrowserIdle();
  useEffect(() => {
    if (module || !idle) return;
    let current = true;
    loadHintTooltip().then(
      (m) => current && setModule(m),
      // Without its code the control still works; the tooltip is what is missing.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [module, idle]);
  const { boxRef, keepFocus } = useFocusCarry();
  return (
    // display: contents — the box only marks where the control is; the layout ignores it.
    <span ref={boxRef} className="contents">
      {module ? (
        <>
          <module.HintTooltip label={label}>{children}</module.HintTooltip>
          {keepFocus}
        </>
      ) : (
        children
      )}
    </span>
  );
}
