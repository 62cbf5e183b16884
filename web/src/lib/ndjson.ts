import { throwIfNotOk } from './request';

/**
 * POSTs JSON and reads an `application/x-ndjson` answer line by line as it arrives (the agent's
 * deployments stream their progress this way). A refusal before the stream starts (400, 403,
 * 409, 502…) throws the usual ApiRequestError; lines that are not JSON are skipped.
 */
export async function postNdjson(
  path: string,
  body: unknown,
  onEvent: (event: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await throwIfNotOk(
    await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
      signal,
    }),
  );
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      emit(buffered.slice(0, newline), onEvent);
      buffered = buffered.slice(newline + 1);
    }
    if (done) break;
  }
  emit(buffered, onEvent);
}

function emit(line: string, onEvent: (event: unknown) => void) {
  const trimmed = line.trim();
  if (!trimmed) return;
  try {
    onEvent(JSON.parse(trimmed));
  } catch {
    // not JSON: ignore
  }
}
