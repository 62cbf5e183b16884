import { Fingerprint, KeyRound, Smartphone } from 'lucide-react';
import { ReauthProvider } from '../reauth/reauth';
import { PasskeysCard } from './passkeys-card';
import { pageContainer } from '@/components/page-container';

const points = [
  {
    icon: Fingerprint,
    title: 'Your fingerprint, face or PIN',
    text: 'The device checks it is you; the hub never sees it.',
  },
  {
    icon: KeyRound,
    title: 'Nothing to steal or phish',
    text: 'The hub keeps only a public key, and a passkey works only on this hub’s address.',
  },
  {
    icon: Smartphone,
    title: 'On every device you choose',
    text: 'Add one per laptop or security key; synced passkeys follow your phone’s account.',
  },
];

/** /enroll-passkey: what a passkey is, add one, and manage the ones you have. */
export function EnrollPasskeyPage() {
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Passkeys</h1>
        <p className="text-sm text-muted-foreground">
          Sign in to this hub without typing a password: your device holds a key only it can use.
        </p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-3">
        {points.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3 rounded-lg border p-4">
            <Icon aria-hidden="true" className="size-5 shrink-0 text-primary" />
            <div>
              <p className="text-sm font-medium">{title}</p>
              <p className="text-xs text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
      {/* Deleting a passkey may ask for the password first. */}
      <ReauthProvider>
        <PasskeysCard />
      </ReauthProvider>
    </div>
  );
}
