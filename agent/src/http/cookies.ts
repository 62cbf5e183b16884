/**
 * One cookie's value from a Cookie header, without parsing the others. Every API request reads the
 * session cookie; Hono's general parser (which validates and decodes every pair) was 4 % of a status
 * poll's CPU time. Values are returned as sent: our cookies hold base64url, which needs no decoding.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const key = `${name}=`;
  let from = 0;
  while (from < header.length) {
    const at = header.indexOf(key, from);
    if (at === -1) return undefined;
    // A match must start the header or follow a separator, so `xnexus_session=` is not ours.
    const before = at === 0 ? ';' : header[at - 1]!;
    if (before === ';' || before === ' ') {
      const end = header.indexOf(';', at + key.length);
      const value = header.slice(at + key.length, end === -1 ? undefined : end).trim();
      if (value === '') return undefined;
      // RFC 6265 allows a quoted value; ours never are, so the common case skips the regex.
      return value.charCodeAt(0) === 34 /* " */ ? value.replace(/^"(.*)"$/, '$1') : value;
    }
    from = at + key.length;
  }
  return undefined;
}
