import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * The one content width of the console's screens (issue 21: there were five): as wide as the top
 * bar, with the same side padding. Forms and prose narrower than that keep their own max width
 * inside it.
 */
export const PAGE_CONTAINER = 'mx-auto w-full max-w-7xl px-4 py-6';

/**
 * The page container's classes with a screen's own layout (`grid gap-6`, `space-y-6`) added. A grid
 * page's one column is the container's width (minmax(0, 1fr)), not the widest child's min-content:
 * otherwise one long line (a tab row, a JSON dump) widens the whole screen past a phone's 390 px.
 */
export function pageContainer(layout?: string): string {
  const grid = layout?.split(' ').includes('grid');
  return cn(PAGE_CONTAINER, grid && 'grid-cols-[minmax(0,1fr)]', layout);
}

export function PageContainer({ className, ...props }: ComponentProps<'div'>) {
  return <div className={pageContainer(className)} {...props} />;
}
