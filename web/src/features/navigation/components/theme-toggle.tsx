import { ThemeIcon } from '@/components/theme-icon';
import { Button } from '@/components/ui/button';
import { Hint } from '@/components/ui/hint';
import { useTheme } from '@/lib/theme-provider';

/** Spec §4: light or dark, saved under "theme" and applied as a class on the root element. */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Hint label={`Switch to ${next} theme`}>
      <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label="Toggle theme" data-theme={theme}>
        <ThemeIcon />
      </Button>
    </Hint>
  );
}
