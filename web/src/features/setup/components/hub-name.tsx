import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/features/auth/auth-provider';
import { hubIdentityQueryOptions } from '@/data/setup-status';

/** The name the owner gave the hub in the wizard (its hostname until then); undefined signed out. */
export function useHubName(): string | undefined {
  const { user } = useAuth();
  return useQuery(hubIdentityQueryOptions(Boolean(user))).data?.hubName;
}

/** The hub's name in the top bar, so a household with two hubs knows which one it is on. */
export function HubName({ className }: { className?: string }) {
  const hubName = useHubName();
  if (!hubName) return null;
  return (
    <span data-testid="hub-name" title="This hub's name" className={className}>
      {hubName}
    </span>
  );
}
