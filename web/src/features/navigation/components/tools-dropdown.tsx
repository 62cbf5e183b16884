import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { useFirstItemFocus, type EarlyPress } from '@/components/deferred-control';
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
export function ToolsDropdown({ trigger, press }: { trigger: ReactElement; press: EarlyPress | null }) {
  const firstItemFocus = useFirstItemFocus(press);
  return (
    // Non-modal: the page behind stays in the accessibility tree (a modal menu hides it with
    // aria-hidden while its links remain focusable, which axe reports as aria-hidden-focus).
    <DropdownMenu modal={false} defaultOpen={press !== null}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56" ref={firstItemFocus}>
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
