/**
 * Polls `probe` every 50 ms until `accept` takes its value, and returns that value; after
 * `timeoutMs` it throws with the last value seen, so a failing test says what it was waiting for.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  { timeoutMs = 10_000, what = 'condition' }: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 800)}`);
}
