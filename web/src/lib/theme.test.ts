import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY, applyTheme, readStoredTheme, resolveInitialTheme, storeTheme } from './theme';

function fakeRoot(initial: string[] = []) {
  const classes = new Set(initial);
  return {
    classList: {
      add: (c: string) => classes.add(c),
      remove: (...cs: string[]) => cs.forEach((c) => classes.delete(c)),
    } as unknown as DOMTokenList,
    style: { colorScheme: '' } as CSSStyleDeclaration,
    classes,
  };
}

describe('resolveInitialTheme (spec §4)', () => {
  it('uses the stored light or dark choice over the system preference', () => {
    expect(resolveInitialTheme('light', true)).toBe('light');
    expect(resolveInitialTheme('dark', false)).toBe('dark');
  });

  it('follows the system dark preference when nothing valid is stored', () => {
    expect(resolveInitialTheme(null, true)).toBe('dark');
    expect(resolveInitialTheme('purple', true)).toBe('dark');
    expect(resolveInitialTheme(undefined, true)).toBe('dark');
  });

  it('is light otherwise', () => {
    expect(resolveInitialTheme(null, false)).toBe('light');
    expect(resolveInitialTheme('', false)).toBe('light');
  });
});

describe('theme storage', () => {
  it('stores and reads the choice under the "theme" key', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    storeTheme(storage, 'dark');
    expect(THEME_STORAGE_KEY).toBe('theme');
    expect(data.get('theme')).toBe('dark');
    expect(readStoredTheme(storage)).toBe('dark');
  });

  it('survives storage that throws or is missing', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readStoredTheme(broken)).toBeNull();
    expect(() => storeTheme(broken, 'light')).not.toThrow();
    expect(readStoredTheme(undefined)).toBeNull();
  });
});

describe('applyTheme', () => {
  it('leaves exactly one theme class on the root and sets the colour scheme', () => {
    const root = fakeRoot(['light', 'other']);
    applyTheme(root, 'dark');
    expect([...root.classes].sort()).toEqual(['dark', 'other']);
    expect(root.style.colorScheme).toBe('dark');
    applyTheme(root, 'light');
    expect([...root.classes].sort()).toEqual(['light', 'other']);
    expect(root.style.colorScheme).toBe('light');
  });
});
