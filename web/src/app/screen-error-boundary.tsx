import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { isCodeFetchFailure } from '@/lib/lazy-code';
import { markPageLive } from '@/lib/prerendered-page';

interface State {
  error: Error | null;
}

/**
 * Catches a screen that failed to load or render, so the console's frame stays usable. A code
 * fetch that fails has been tried again by then (lib/lazy-code loadCode), so the usual cause is an
 * update of the hub while this tab was open: the old screen's code is gone.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    // Another address is another screen: give it its own chance.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The message's own button (try again) must take a press on a prerendered page too.
    markPageLive();
    // eslint-disable-next-line no-console -- the browser console is where a developer looks for this
    console.error('screen failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const chunkFailed = isCodeFetchFailure(this.state.error);
    return (
      <div
        role="alert"
        className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-20 text-center"
      >
        <AlertTriangle aria-hidden="true" className="size-10 text-destructive" />
        <h1 className="text-2xl font-semibold tracking-tight">This screen could not be shown</h1>
        <p className="text-muted-foreground">
          {chunkFailed
            ? 'Its code could not be loaded, often because the hub was updated while this page was open. Reloading fetches the current version.'
            : this.state.error.message}
        </p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    );
  }
}
