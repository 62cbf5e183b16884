import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { applyTheme, detectInitialTheme, storeTheme, type Theme } from './theme';
import { useHydrated } from './use-hydrated';

interface ThemeContextValue {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children, defaultTheme }: { children: ReactNode; defaultTheme?: Theme }) {
  const [theme, setThemeState] = useState<Theme>(() => defaultTheme ?? detectInitialTheme());

  // Layout effect: the class must change before paint, or a toggle flashes the old colours.
  useLayoutEffect(() => {
    applyTheme(document.documentElement, theme);
  }, [theme]);

  const setTheme = useCallback((next: Theme) => {
    storeTheme(window.localStorage, next);
    setThemeState(next);
  }, []);
  const toggleTheme = useCallback(() => setTheme(theme === 'dark' ? 'light' : 'dark'), [theme, setTheme]);

  const value = useMemo(() => ({ theme, setTheme, toggleTheme }), [theme, setTheme, toggleTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useTheme must be used inside <ThemeProvider>');
  // A prerendered page was rendered light (the build does not know the visitor's choice), and each
  // part's first client render must match it; before-paint.js has applied the real colours before the
  // first paint all the same, and the toggles draw their icon from the page's class. Decided here,
  // in each reader, rather than by the provider: a context value that changed once the page's
  // frame went live would make React throw away the HTML of a screen whose code came later.
  const hydrated = useHydrated();
  return hydrated ? context : { ...context, theme: 'light' };
}
