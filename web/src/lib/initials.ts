/**
 * Spec §3: avatar initials are the first letters of the name's words (at most 2), else the
 * email's first two letters, else "U".
 */
export function initials(name?: string | null, email?: string | null): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    // Array.from keeps a letter made of two UTF-16 units (many emoji, some scripts) whole.
    return words
      .slice(0, 2)
      .map((word) => Array.from(word)[0])
      .join('')
      .toUpperCase();
  }
  const address = (email ?? '').trim();
  if (address) return Array.from(address).slice(0, 2).join('').toUpperCase();
  return 'U';
}
