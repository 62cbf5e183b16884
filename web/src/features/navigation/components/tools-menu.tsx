import { ChevronDown } from 'lucide-react';
import { lazy, type ComponentProps } from 'react';
import { DeferredControl } from '@/components/deferred-control';
import { Button } from '@/components/ui/button';

const ToolsDropdown = lazy(async () => ({ default: (await import('./tools-dropdown')).ToolsDropdown }));

function ToolsButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" className="text-muted-foreground data-[state=open]:bg-accent" {...props}>
      Tools &amp; Utilities
      <ChevronDown aria-hidden="true" />
    </Button>
  );
}

/** Spec §2: the Tools and Utilities menu (tools-dropdown.tsx), its code loaded after the first paint. */
export function ToolsMenu() {
  return (
    <DeferredControl
      button={(onPress) => <ToolsButton onClick={onPress} />}
      full={(press) => <ToolsDropdown trigger={<ToolsButton />} press={press} />}
    />
  );
}
