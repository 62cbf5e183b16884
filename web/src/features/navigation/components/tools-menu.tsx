import { ChevronDown } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { TOOL_GROUPS } from '../nav-items';

/**
 * Spec §2: the Tools and Utilities menu, one submenu per group. Radix's submenu timings
 * (open delay 100 ms, pointer grace 300 ms) and type-ahead reset (1000 ms) are the spec's (§9).
 */
export function ToolsMenu() {
  return (
    // Non-modal: the page behind stays in the accessibility tree (a modal menu hides it with
    // aria-hidden while its links remain focusable, which axe reports as aria-hidden-focus).
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="text-muted-foreground data-[state=open]:bg-accent">
          Tools &amp; Utilities
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56">
        {TOOL_GROUPS.map((group) => (
          <DropdownMenuSub key={group.label}>
            <DropdownMenuSubTrigger>{group.label}</DropdownMenuSubTrigger>
            <DropdownMenuSubContent className="w-56">
              {group.items.map((item) => (
                <DropdownMenuItem key={item.href} asChild>
                  <Link href={item.href}>{item.label}</Link>
                </DropdownMenuItem>
              ))}
            </DropdownMenuSubContent>
          </DropdownMenuSub>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
