import type { PublicUser, Role } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { roleBadge } from '@/features/navigation/nav-items';

/** The top bar badges only the admin roles; here every account is told what it is. */
const roleLabel = (role: Role) => roleBadge(role) ?? 'User';

export function ProfileCard({ user }: { user: PublicUser }) {
  const created = new Date(user.createdAt);
  return (
    <Panel
      title="Profile"
      description={
        <>Your name, email and role on this hub. An administrator of the hub can change your role.</>
      }
      contentClassName=""
    >
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-muted-foreground">Name</dt>
        <dd className="font-medium break-words">{user.name}</dd>
        <dt className="text-muted-foreground">Email</dt>
        <dd className="font-medium break-all">{user.email}</dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd>
          <Badge variant={user.role === 'user' ? 'secondary' : 'default'} data-testid="profile-role">
            {roleLabel(user.role)}
          </Badge>
        </dd>
        <dt className="text-muted-foreground">Member since</dt>
        <dd className="font-medium">
          <time dateTime={user.createdAt}>
            {created.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}
          </time>
        </dd>
      </dl>
    </Panel>
  );
}
