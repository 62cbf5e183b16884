import { Check, Copy } from 'lucide-react';
import { useEffect, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';

type CopyState = 'idle' | 'copied' | 'selected';

/**
 * Copies `text`, and says so in the button itself: these buttons live in modal dialogs, where a
 * toast outside the dialog is hidden from screen readers.
 */
export function CopyButton({
  text,
  label,
  target,
}: {
  text: string;
  /** The accessible name, e.g. "Copy the token". */
  label: string;
  /** The element showing `text`, selected when the browser refuses the clipboard. */
  target: RefObject<HTMLElement | null>;
}) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // Browsers give the clipboard only to secure pages (https or localhost), and a hub is often
      // opened at http://<its address>: the text is selected instead, ready for Ctrl+C.
      const element = target.current;
      const selection = window.getSelection();
      if (element && selection) {
        const range = document.createRange();
        range.selectNodeContents(element);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setState('selected');
    }
  }

  return (
    <div className="flex shrink-0 flex-col items-end gap-1">
      <Button type="button" size="sm" variant="outline" aria-label={label} onClick={() => void copy()}>
        {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {state === 'copied' ? 'Copied' : 'Copy'}
      </Button>
      <span role="status" className="text-xs text-muted-foreground">
        {state === 'copied' ? <span className="sr-only">Copied</span> : null}
        {state === 'selected' ? 'Selected: press Ctrl+C (⌘C on a Mac)' : null}
      </span>
    </div>
  );
}
