/** Spec §3/§4: the theme preference, light or dark, stored locally under the key "theme". */
export type Theme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'theme';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

/** Spec §4: the stored choice, else the system's dark preference, else light. */
export function resolveInitialTheme(stored: string | null | undefined, systemPrefersDark: boolean): Theme {
  if (isTheme(stored)) return stored;
  return systemPrefersDark ? 'dark' : 'light';
}

/** Reads the stored choice; storage can be unavailable (private windows, blocked cookies). */
export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined): string | null {
  try {
    return storage?.getItem(THEME_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function storeTheme(storage: Pick<Storage, 'setItem'> | undefined, theme: Theme): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not saved: the choice still applies for this visit.
  }
}

/** Puts exactly one of the theme classes on the root element; the CSS tokens follow `.dark`. */
export function applyTheme(root: Pick<HTMLElement, 'classList' | 'style'>, theme: Theme): void {
  root.classList.remove(theme === 'dark' ? 'light' : 'dark');
  root.classList.add(theme);
  root.style.colorScheme = theme;
}

export function detectInitialTheme(): Theme {
  if (typeof window === 'undefined') return 'light';
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  return resolveInitialTheme(readStoredTheme(window.localStorage), prefersDark);
}
