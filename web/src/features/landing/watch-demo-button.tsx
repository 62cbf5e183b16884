import { PlayCircle } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '@/components/ui/button';

/** The landing page's "Watch Demo" button, before and after the dialog's code has arrived. */
export function WatchDemoButton(props: ComponentProps<typeof Button>) {
  return (
    <Button size="lg" variant="ghost" {...props}>
      <PlayCircle aria-hidden="true" />
      Watch Demo
    </Button>
  );
}
