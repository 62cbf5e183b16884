import * as ProgressPrimitive from '@radix-ui/react-progress';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export interface ProgressProps extends ComponentProps<typeof ProgressPrimitive.Root> {
  indicatorClassName?: string;
  /** Work of unknown length: a sliding bar, and no value for screen readers (Radix's indeterminate state). */
  indeterminate?: boolean;
}

export function Progress({
  className,
  indicatorClassName,
  value,
  max = 100,
  indeterminate = false,
  ...props
}: ProgressProps) {
  if (indeterminate) {
    return (
      <ProgressPrimitive.Root
        data-slot="progress"
        value={null}
        className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/20', className)}
        {...props}
      >
        {/* With reduced motion the bar stands still, half filled and faded. */}
        <ProgressPrimitive.Indicator
          data-slot="progress-indicator"
          className={cn(
            'h-full w-1/3 animate-indeterminate bg-primary motion-reduce:w-1/2 motion-reduce:animate-none motion-reduce:opacity-60',
            indicatorClassName,
          )}
        />
      </ProgressPrimitive.Root>
    );
  }
  const percent = value == null ? 0 : Math.min(100, Math.max(0, (value / max) * 100));
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={value}
      max={max}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/20', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className={cn('h-full w-full flex-1 bg-primary transition-transform', indicatorClassName)}
        style={{ transform: `translateX(-${100 - percent}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
