import {
  Component,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';
import type { LazyComponent } from '@/lib/lazy-code';
import { useBrowserIdle } from '@/lib/use-browser-idle';

/** How the button was pressed before the control's code had arrived: `keyboard` for Enter or Space. */
export type EarlyPress = 'pointer' | 'keyboard';

/**
 * A control whose full code (a Radix menu or dialog, with its focus and positioning code) is not
 * needed for the first paint (issue 26): until the browser is idle after the first screen, only its
 * button renders; then its code is asked for (`code`, a lib/lazy-code lazyComponent), and once it
 * has arrived the full control takes the button's place, in one swap.
 *
 * Nothing a person did meanwhile is lost: a press opens the full control as soon as its code has
 * arrived (`full(press)`: open from the start, and for a keyboard press with the focus on its first
 * item, as the keyboard opens a menu); a press that is down when the code arrives holds the swap
 * until it is released, since the browser clicks only when a press goes down and up on the same
 * element; and a button that had the keyboard focus when it was replaced hands it to the button
 * that replaces it. If the full control's code cannot be loaded (the hub was updated while the page
 * was open, the link dropped), the button stays, and a press asks for the code again: the rest of
 * the page is not taken down with it.
 *
 * `button(onPress)` is the control's button until then; the full control renders the same button
 * as its trigger.
 */
export function DeferredControl({
  code,
  button,
  full,
}: {
  code: Pick<LazyComponent<never>, 'load' | 'loaded'>;
  button: (onPress: (event: MouseEvent) => void) => ReactElement;
  full: (press: EarlyPress | null) => ReactNode;
}) {
  const idle = useBrowserIdle();
  const [press, setPress] = useState<EarlyPress | null>(null);
  const [asks, setAsks] = useState(0);
  const wanted = idle || press !== null;
  const arrived = useCodeArrived(code, wanted, asks);
  const { held, holdWhilePressed } = useHoldWhilePressed();
  const showFull = wanted && arrived && !held;
  const { boxRef, watch, keepFocus } = useFocusCarry();
  // A click from Enter or Space on a button has no pointer position: detail is 0.
  const early = button((event) => {
    setPress(event.detail === 0 ? 'keyboard' : 'pointer');
    setAsks((n) => n + 1);
  });
  const waiting = (
    <>
      {early}
      {keepFocus}
    </>
  );
  return (
    // display: contents — the box only marks where the control is; the layout ignores it.
    <span
      ref={boxRef}
      className="contents"
      onPointerDownCapture={showFull ? undefined : holdWhilePressed}
      onKeyDownCapture={(event) => {
        // Space clicks a button when it is released (Enter at once).
        if (!showFull && event.key === ' ') holdWhilePressed();
      }}
    >
      {watch}
      {showFull ? (
        <ButtonIfCodeFails button={waiting}>
          <Suspense fallback={waiting}>
            {full(press)}
            {keepFocus}
          </Suspense>
        </ButtonIfCodeFails>
      ) : (
        early
      )}
    </span>
  );
}

/**
 * Whether the control's code has arrived: asked for once `wanted`, and again on each new ask
 * (`asks`, a press) after a failed load. Code that came earlier (another mount) counts at once.
 */
function useCodeArrived(code: Pick<LazyComponent<never>, 'load' | 'loaded'>, wanted: boolean, asks: number) {
  const [arrived, setArrived] = useState(() => code.loaded() !== undefined);
  useEffect(() => {
    if (!wanted || arrived) return;
    let current = true;
    code.load().then(
      () => current && setArrived(true),
      // The button stays; the next press asks again (the failed load is forgotten).
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [code, wanted, arrived, asks]);
  return arrived;
}

/**
 * Holds the swap while a press that went down on the early button is still down (pointer, or the
 * Space key); it is let go after the release's task, once the release's click has been dispatched.
 */
function useHoldWhilePressed() {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!held) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const letGo = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setHeld(false), 0);
    };
    const events = ['pointerup', 'pointercancel', 'keyup', 'blur'] as const;
    for (const type of events) window.addEventListener(type, letGo, true);
    return () => {
      clearTimeout(timer);
      for (const type of events) window.removeEventListener(type, letGo, true);
    };
  }, [held]);
  const holdWhilePressed = useCallback(() => setHeld(true), []);
  return { held, holdWhilePressed };
}

/** Shows the control's button instead of its full control when that fails to load or render. */
class ButtonIfCodeFails extends Component<{ button: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.button : this.props.children;
  }
}

/**
 * Hands the keyboard focus on when the focused button inside `boxRef` is replaced by another
 * element. Whether it had the focus is read by `watch` (rendered first in the box, on every render)
 * as the commit begins, before the old button leaves the page: a read during the render could be
 * stale, since a render is not always committed in the same task and the focus can move in between
 * (a press on the keyboard then went nowhere). `keepFocus`, rendered beside the new element, moves
 * the focus there once it is in the page, unless the focus has gone somewhere else meanwhile.
 */
export function useFocusCarry(): {
  boxRef: RefObject<HTMLSpanElement | null>;
  watch: ReactElement;
  keepFocus: ReactElement;
} {
  const boxRef = useRef<HTMLSpanElement>(null);
  const hadFocus = useRef(false);
  return {
    boxRef,
    watch: <FocusBeforeCommit boxRef={boxRef} hadFocus={hadFocus} />,
    keepFocus: <KeepFocus boxRef={boxRef} hadFocus={hadFocus} />,
  };
}

interface FocusRefs {
  boxRef: RefObject<HTMLSpanElement | null>;
  hadFocus: RefObject<boolean>;
}

/**
 * Notes whether the box holds the focus right before each commit changes the page: React calls
 * getSnapshotBeforeUpdate in the commit, before any element is removed, and nothing else runs
 * between then and KeepFocus's layout effect. (Function components have no such moment.)
 */
class FocusBeforeCommit extends Component<FocusRefs> {
  override getSnapshotBeforeUpdate() {
    const box = this.props.boxRef.current;
    this.props.hadFocus.current = box !== null && box.contains(document.activeElement);
    return null;
  }

  // React calls getSnapshotBeforeUpdate only beside componentDidUpdate.
  override componentDidUpdate() {}

  override render() {
    return null;
  }
}

function KeepFocus({ boxRef, hadFocus }: FocusRefs) {
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (!hadFocus.current || (active && active !== document.body)) return;
    boxRef.current?.querySelector<HTMLElement>('button, a[href], [tabindex]')?.focus();
  }, [boxRef, hadFocus]);
  return null;
}

/**
 * For a menu opened by an early keyboard press: a ref for its content that moves the focus to its
 * first item once it has opened, as Radix does when the keyboard opens a menu.
 */
export function useFirstItemFocus(press: EarlyPress | null) {
  const done = useRef(false);
  return useCallback(
    (content: HTMLElement | null) => {
      if (!content || done.current || press !== 'keyboard') return;
      done.current = true;
      // After Radix's own focus on the opened menu (an effect of its mount).
      requestAnimationFrame(() => content.querySelector<HTMLElement>('[role="menuitem"]')?.focus());
    },
    [press],
  );
}
