import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import type { NotificationLevel } from '@nexus/agent/contract';
import { cn } from '@/lib/utils';

const icons = {
  info: { Icon: Info, className: 'text-primary', label: 'Information' },
  success: { Icon: CheckCircle2, className: 'text-success', label: 'Success' },
  warning: { Icon: AlertTriangle, className: 'text-warning', label: 'Warning' },
  error: { Icon: XCircle, className: 'text-destructive', label: 'Error' },
} as const;

export function NotificationLevelIcon({
  level,
  className,
}: {
  level: NotificationLevel;
  className?: string;
}) {
  const { Icon, className: tone, label } = icons[level];
  return <Icon role="img" aria-label={label} className={cn('size-4 shrink-0', tone, className)} />;
}
