/**
 * An identifier from the agent (`not_configured`, `auth-invalid`, `trialing`) as words for a person:
 * "Not configured". For values without a hand-written label; issue 21 found raw ids shown as text.
 */
export function humanize(id: string): string {
  const words = id.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
