import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { PasskeysCard } from './passkeys-card';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';
import { TwoFactorCard } from './two-factor-card';
import { SessionsCard } from './sessions-card';
import { ReauthProvider } from '../reauth/reauth';
import { RelatedLinks } from '@/components/related-links';
import { pageContainer } from '@/components/page-container';

/** /settings: who you are on this hub, your password, your second factor, your passkeys and where you are signed in. */
export function AccountSettingsPage() {
  const { user, error } = useAuth();

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Account Settings</h1>
        <p className="text-sm text-muted-foreground">
          Your profile, your password, two-factor authentication and passkeys for signing in to this hub. To
          sign a phone in without typing the password, pair it on{' '}
          <Link href="/phone-admin" className="underline underline-offset-4">
            Phone Admin
          </Link>
          ; what is left to set up on this hub is on the{' '}
          <Link href="/onboarding" className="underline underline-offset-4">
            onboarding checklist
          </Link>
          .
        </p>
        <RelatedLinks links={[{ label: 'Test a two-factor code', href: '/2fa-test' }]} />
      </header>

      {/* The provider keeps the last known user when a re-check fails, so the error only matters without one. */}
      {!user && error ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your account</AlertTitle>
          <AlertDescription>{errorMessage(error)}</AlertDescription>
        </Alert>
      ) : !user ? (
        <div role="status" className="space-y-6">
          <span className="sr-only">Loading your account</span>
          <Skeleton className="h-48 w-full" />
          <Skeleton className="h-72 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : (
        // Sensitive changes ask for the password again when the last proof is over 5 minutes old.
        <ReauthProvider>
          <ProfileCard user={user} />
          <PasswordCard user={user} />
          <TwoFactorCard user={user} />
          <PasskeysCard compact />
          <SessionsCard />
        </ReauthProvider>
      )}
    </div>
  );
}
