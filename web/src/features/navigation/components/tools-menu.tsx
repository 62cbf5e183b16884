import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { DeferredControl } from '@/components/deferred-control';
import { Button } from '@/components/ui/button';
import { lazyComponent } from '@/lib/lazy-code';

const ToolsDropdown = lazyComponent(async () => (await import('./tools-dropdown')).ToolsDropdown);

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
      code={ToolsDropdown}
      button={(onPress) => <ToolsButton onClick={onPress} />}
      full={(press) => <ToolsDropdown.Component trigger={<ToolsButton />} press={press} />}
    />
  );
}
