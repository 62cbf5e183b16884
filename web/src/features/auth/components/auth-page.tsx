import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useQuery } from '@tanstack/react-query';
import { AudioLines, Cpu, Fingerprint, House, KeyRound, Loader2, Lock, ShieldCheck } from 'lucide-react';
import { Link, Redirect, useSearch } from 'wouter';
import { TOTP_DIGITS } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ThemeIcon } from '@/components/theme-icon';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Hint } from '@/components/ui/hint';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useTheme } from '@/lib/theme-provider';
import {
  cancelPasskeyPrompt,
  isPasskeyCancelled,
  passkeyAutofillSupported,
  passkeyErrorMessage,
  passkeysSupported,
  signInWithPasskey,
  registrationStatusQueryOptions,
  usePasskeySignedIn,
} from '@/data/auth-sign-in';
import { isExistingAccount, isTwoFactorRequired } from '@/data/auth-session';
import { useHydrated } from '@/lib/use-hydrated';
import { useAuth } from '../auth-provider';

type AuthTab = 'signin' | 'register';

interface SignInFields {
  email: string;
  password: string;
  rememberMe: boolean;
}

interface RegisterFields {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
}

const emptySignIn: SignInFields = { email: '', password: '', rememberMe: false };
const emptyRegister: RegisterFields = {
  name: '',
  email: '',
  password: '',
  confirmPassword: '',
  inviteCode: '',
};

/**
 * The /auth screen (spec §2, §4, §5): Sign In and Register tabs, replaced by a two-factor step
 * when the server asks for a code. Signed-in visitors are sent to /dashboard.
 */
export function AuthPage() {
  const { user, error: sessionError, loginMutation, registerMutation } = useAuth();
  // An invite link (/auth?invite=<code>) opens the Register tab with the code filled in.
  const invitedWith = new URLSearchParams(useSearch()).get('invite')?.trim() ?? '';
  const [tab, setTab] = useState<AuthTab>(invitedWith ? 'register' : 'signin');
  const [signIn, setSignIn] = useState<SignInFields>(emptySignIn);
  const [registration, setRegistration] = useState<RegisterFields>({
    ...emptyRegister,
    inviteCode: invitedWith,
  });
  const registrationStatus = useQuery(registrationStatusQueryOptions());
  const firstAccount = registrationStatus.data?.firstAccount ?? false;
  const mode = registrationStatus.data?.mode;
  // Unknown (still loading, or the hub did not answer): the form is offered and the hub decides.
  const registrationClosed = mode === 'closed' && !firstAccount;
  const askInvite = !firstAccount && (mode === 'invite' || invitedWith !== '');
  const [twoFactorStep, setTwoFactorStep] = useState(false);
  const [totpCode, setTotpCode] = useState('');
  // A lost phone: one of the recovery codes saved at enrolment goes in the same field.
  const [recoveryCode, setRecoveryCode] = useState(false);
  const totpInput = useRef<HTMLInputElement>(null);

  const passkey = usePasskeySignIn(signIn.rememberMe, tab === 'signin' && !twoFactorStep && !user);
  const signInForm = useRef<HTMLFormElement>(null);
  useKeepTypedBeforeHydration(signInForm, setSignIn);

  // Right after registering, the provider moves on to /dashboard after its 500 ms pause (spec §4).
  if (user && !registerMutation.isSuccess) return <Redirect to="/dashboard" replace />;

  const submitSignIn = (event: FormEvent) => {
    event.preventDefault();
    loginMutation.mutate(
      { email: signIn.email, password: signIn.password, rememberMe: signIn.rememberMe },
      {
        onError: (error) => {
          if (isTwoFactorRequired(error)) {
            setTotpCode('');
            setTwoFactorStep(true);
          }
        },
      },
    );
  };

  const submitTwoFactor = (event: FormEvent) => {
    event.preventDefault();
    loginMutation.mutate(
      { email: signIn.email, password: signIn.password, rememberMe: signIn.rememberMe, totpCode },
      {
        onError: () => {
          // A wrong or used code: start the next try from an empty field.
          setTotpCode('');
          totpInput.current?.focus();
        },
      },
    );
  };

  const toggleRecoveryCode = () => {
    setRecoveryCode((on) => !on);
    setTotpCode('');
    loginMutation.reset();
    totpInput.current?.focus();
  };

  const backToSignIn = () => {
    setRecoveryCode(false);
    setTotpCode('');
    setTwoFactorStep(false);
    loginMutation.reset();
  };

  const submitRegister = (event: FormEvent) => {
    event.preventDefault();
    if (registration.password !== registration.confirmPassword) {
      toast({ title: 'Error', description: 'Passwords do not match', variant: 'destructive' });
      return;
    }
    const { name, email, password } = registration;
    const inviteCode = registration.inviteCode.trim();
    registerMutation.mutate(
      { name, email, password, ...(inviteCode ? { inviteCode } : {}) },
      {
        onError: (error) => {
          if (isExistingAccount(error)) {
            setSignIn((current) => ({ ...current, email }));
            setTab('signin');
          }
        },
      },
    );
  };

  return (
    <div className="grid min-h-dvh bg-background lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <BrandPanel />
      <main className="relative flex flex-col items-center justify-center gap-6 px-4 py-10 sm:px-8">
        <div className="absolute top-4 right-4">
          <ThemeToggle />
        </div>
        <div role="heading" aria-level={1} className="flex items-center gap-2 lg:hidden">
          <BrandMark />
        </div>

        <div className="w-full max-w-md space-y-4">
          {sessionError && !user && (
            <Alert variant="destructive">
              <AlertTitle>Could not check your session</AlertTitle>
              <AlertDescription>
                {errorMessage(sessionError) ?? 'The hub did not answer.'} You can still sign in below.
              </AlertDescription>
            </Alert>
          )}

          {twoFactorStep ? (
            <Card>
              <CardHeader className="items-center text-center">
                <span className="mb-2 grid size-12 place-items-center rounded-full bg-primary/10 text-primary">
                  <ShieldCheck aria-hidden="true" className="size-6" />
                </span>
                <CardTitle role="heading" aria-level={2} className="text-xl">
                  Two-factor authentication
                </CardTitle>
                <CardDescription>
                  {recoveryCode
                    ? `Enter one of the recovery codes you saved for ${signIn.email}. Each works once.`
                    : `Enter the ${TOTP_DIGITS}-digit code from your authenticator app for ${signIn.email}.`}
                </CardDescription>
              </CardHeader>
              <form onSubmit={submitTwoFactor} aria-label="Two-factor authentication">
                <CardContent className="space-y-2">
                  <Label htmlFor="totp-code">{recoveryCode ? 'Recovery code' : 'Authentication code'}</Label>
                  {recoveryCode ? (
                    <Input
                      ref={totpInput}
                      id="totp-code"
                      name="totpCode"
                      autoComplete="off"
                      autoCapitalize="none"
                      spellCheck={false}
                      maxLength={11}
                      placeholder="xxxxx-xxxxx"
                      required
                      autoFocus
                      className="h-11 text-center font-mono text-lg tracking-widest"
                      value={totpCode}
                      onChange={(event) => setTotpCode(event.target.value.trim())}
                    />
                  ) : (
                    <Input
                      ref={totpInput}
                      id="totp-code"
                      name="totpCode"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={TOTP_DIGITS}
                      pattern={`\\d{${TOTP_DIGITS}}`}
                      title={`${TOTP_DIGITS} digits`}
                      placeholder="000000"
                      required
                      autoFocus
                      className="h-11 text-center font-mono text-lg tracking-[0.5em]"
                      value={totpCode}
                      onChange={(event) => setTotpCode(event.target.value.replace(/\D/g, ''))}
                    />
                  )}
                </CardContent>
                <CardFooter className="flex-col gap-2">
                  <SubmitButton pending={loginMutation.isPending} pendingLabel="Verifying...">
                    Verify
                  </SubmitButton>
                  <Button variant="link" className="w-full" onClick={toggleRecoveryCode}>
                    {recoveryCode ? 'Use a code from your authenticator app' : 'Use a recovery code instead'}
                  </Button>
                  <Button variant="ghost" className="w-full" onClick={backToSignIn}>
                    Back to Sign In
                  </Button>
                </CardFooter>
              </form>
            </Card>
          ) : (
            <Card>
              <CardHeader>
                <CardTitle role="heading" aria-level={2} className="text-xl">
                  {tab === 'signin' ? 'Welcome back' : 'Create your account'}
                </CardTitle>
                <CardDescription>
                  {tab === 'signin'
                    ? 'Sign in to manage your hub, satellites and automations.'
                    : firstAccount || !registrationStatus.data
                      ? 'The first account created on a hub becomes its administrator.'
                      : mode === 'open'
                        ? 'Anyone who can reach this hub may create an account.'
                        : mode === 'invite'
                          ? 'Accounts on this hub are by invitation from its owner.'
                          : 'New accounts are not being accepted on this hub.'}
                </CardDescription>
              </CardHeader>
              <CardContent>
                <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
                  <TabsList className="grid w-full grid-cols-2">
                    <TabsTrigger value="signin">Sign In</TabsTrigger>
                    <TabsTrigger value="register">Register</TabsTrigger>
                  </TabsList>

                  <TabsContent value="signin" className="pt-4">
                    <form ref={signInForm} onSubmit={submitSignIn} className="space-y-4" aria-label="Sign In">
                      <Field label="Email" id="signin-email">
                        <Input
                          id="signin-email"
                          name="email"
                          type="email"
                          // "webauthn": the browser offers this hub's passkeys in the field's autofill.
                          autoComplete="username webauthn"
                          placeholder="you@example.com"
                          required
                          value={signIn.email}
                          onChange={(event) => setSignIn({ ...signIn, email: event.target.value })}
                        />
                      </Field>
                      <Field label="Password" id="signin-password">
                        <Input
                          id="signin-password"
                          name="password"
                          type="password"
                          autoComplete="current-password"
                          required
                          value={signIn.password}
                          onChange={(event) => setSignIn({ ...signIn, password: event.target.value })}
                        />
                      </Field>
                      <div className="flex items-center gap-2">
                        <Checkbox
                          id="signin-remember"
                          name="rememberMe"
                          checked={signIn.rememberMe}
                          onCheckedChange={(checked) =>
                            setSignIn({ ...signIn, rememberMe: checked === true })
                          }
                        />
                        <Label htmlFor="signin-remember" className="font-normal">
                          Remember me for 30 days
                        </Label>
                        <Link
                          href="/forgot-password"
                          className="ml-auto text-sm text-primary underline-offset-4 hover:underline"
                        >
                          Forgot password?
                        </Link>
                      </div>
                      <SubmitButton pending={loginMutation.isPending} pendingLabel="Signing in...">
                        Sign In
                      </SubmitButton>
                    </form>
                    {/* In the page from its first paint, and hidden by its class where the browser has
                        no passkeys: appearing once the page is live, it moved the form under a
                        person's finger (a CI run's click on "Forgot password?" landed on Sign In). */}
                    <div className="no-passkeys:hidden">
                      <div className="my-4 flex items-center gap-3 text-xs text-muted-foreground">
                        <span className="h-px flex-1 bg-border" />
                        or
                        <span className="h-px flex-1 bg-border" />
                      </div>
                      <Button
                        type="button"
                        variant="outline"
                        className="w-full"
                        onClick={passkey.start}
                        disabled={passkey.pending}
                        aria-busy={passkey.pending}
                      >
                        {passkey.pending ? (
                          <Loader2 aria-hidden="true" className="animate-spin" />
                        ) : (
                          <Fingerprint aria-hidden="true" />
                        )}
                        Sign in with a passkey
                      </Button>
                    </div>
                  </TabsContent>

                  <TabsContent value="register" className="pt-4">
                    {registrationClosed ? (
                      <Alert>
                        <Lock aria-hidden="true" />
                        <AlertTitle>Registration is closed on this hub</AlertTitle>
                        <AlertDescription>
                          The hub’s owner is not accepting new accounts. Ask them for an account, or sign in
                          if you already have one.
                        </AlertDescription>
                      </Alert>
                    ) : (
                      <form onSubmit={submitRegister} className="space-y-4" aria-label="Register">
                        <Field label="Name" id="register-name">
                          <Input
                            id="register-name"
                            name="name"
                            autoComplete="name"
                            placeholder="Your name"
                            required
                            value={registration.name}
                            onChange={(event) =>
                              setRegistration({ ...registration, name: event.target.value })
                            }
                          />
                        </Field>
                        <Field label="Email" id="register-email">
                          <Input
                            id="register-email"
                            name="email"
                            type="email"
                            autoComplete="email"
                            placeholder="you@example.com"
                            required
                            value={registration.email}
                            onChange={(event) =>
                              setRegistration({ ...registration, email: event.target.value })
                            }
                          />
                        </Field>
                        <Field label="Password" id="register-password">
                          <Input
                            id="register-password"
                            name="password"
                            type="password"
                            autoComplete="new-password"
                            required
                            value={registration.password}
                            onChange={(event) =>
                              setRegistration({ ...registration, password: event.target.value })
                            }
                          />
                        </Field>
                        <Field label="Confirm Password" id="register-confirm-password">
                          <Input
                            id="register-confirm-password"
                            name="confirmPassword"
                            type="password"
                            autoComplete="new-password"
                            required
                            value={registration.confirmPassword}
                            onChange={(event) =>
                              setRegistration({ ...registration, confirmPassword: event.target.value })
                            }
                          />
                        </Field>
                        {askInvite && (
                          <div className="space-y-2">
                            <Label htmlFor="register-invite-code">Invite code</Label>
                            <Input
                              id="register-invite-code"
                              name="inviteCode"
                              autoComplete="off"
                              spellCheck={false}
                              required={mode === 'invite'}
                              aria-describedby="register-invite-help"
                              className="font-mono"
                              value={registration.inviteCode}
                              onChange={(event) =>
                                setRegistration({ ...registration, inviteCode: event.target.value })
                              }
                            />
                            <p id="register-invite-help" className="text-xs text-muted-foreground">
                              {invitedWith
                                ? 'Filled in from your invite link. It works once.'
                                : 'Registration on this hub needs an invite: open the link the hub’s owner sent you, or paste its code here.'}
                            </p>
                          </div>
                        )}
                        <SubmitButton pending={registerMutation.isPending} pendingLabel="Creating account...">
                          Create Account
                        </SubmitButton>
                      </form>
                    )}
                  </TabsContent>
                </Tabs>
              </CardContent>
            </Card>
          )}
        </div>
      </main>
    </div>
  );
}

/**
 * Passkey sign-in: the button, and (where the browser offers it) conditional UI, a ceremony
 * waiting in the background for a passkey picked from the e-mail field's autofill. The button's
 * ceremony aborts the waiting one; once it ends without signing in, the waiting one starts again.
 */
function usePasskeySignIn(rememberMe: boolean, active: boolean) {
  const signedIn = usePasskeySignedIn();
  const [pending, setPending] = useState(false);
  const [round, setRound] = useState(0);

  const succeed = useCallback(
    (user: Parameters<typeof signedIn>[0]) => {
      toast({ title: 'Login successful', description: 'Welcome back!' });
      signedIn(user);
    },
    [signedIn],
  );
  const fail = (error: unknown) => {
    if (isPasskeyCancelled(error)) return;
    toast({
      title: 'Passkey sign-in failed',
      description: passkeyErrorMessage(error),
      variant: 'destructive',
    });
  };

  // Read when a passkey is picked from autofill, without restarting the waiting ceremony on each click.
  const rememberRef = useRef(rememberMe);
  useEffect(() => {
    rememberRef.current = rememberMe;
  }, [rememberMe]);

  useEffect(() => {
    // An effect runs only in the browser, after the page is live: no prerender or hydration to match.
    // The button's visibility is before-paint.js's, from the first paint.
    if (!active || pending || !passkeysSupported()) return;
    let stopped = false;
    void passkeyAutofillSupported().then((available) => {
      if (!available || stopped) return;
      // The waiting ceremony is the browser's business until a passkey is picked: failures before
      // that (the hub unreachable, an address the browser will not use for passkeys) stay silent,
      // and it is not restarted, so nothing loops.
      let picked = false;
      signInWithPasskey({
        autofill: true,
        rememberMe: rememberRef.current,
        onPicked: () => (picked = true),
      }).then(succeed, (error: unknown) => {
        if (stopped || !picked || isPasskeyCancelled(error)) return;
        toast({ title: 'Passkey sign-in failed', description: errorMessage(error), variant: 'destructive' });
        // A picked passkey the hub refused: offer autofill again for another try.
        setRound((n) => n + 1);
      });
    });
    return () => {
      stopped = true;
      cancelPasskeyPrompt();
    };
  }, [active, pending, round, succeed]);

  const start = async () => {
    setPending(true);
    try {
      succeed(await signInWithPasskey({ rememberMe }));
    } catch (error) {
      fail(error);
    } finally {
      setPending(false);
    }
  };

  return { pending, start: () => void start() };
}

/**
 * The sign-in screen is prerendered (web/vite-prerender.ts), so its fields take typing before the
 * page's code has arrived; React keeps what the fields hold when it takes the page over but does
 * not tell the form's state. This hands what was typed to the state once, as the form goes live.
 */
function useKeepTypedBeforeHydration(
  form: RefObject<HTMLFormElement | null>,
  setSignIn: (update: (fields: SignInFields) => SignInFields) => void,
) {
  useLayoutEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    const typed = (name: string) => {
      const field = elements.namedItem(name);
      return field instanceof HTMLInputElement ? field.value : '';
    };
    const email = typed('email');
    const password = typed('password');
    if (email === '' && password === '') return;
    setSignIn((fields) => ({
      ...fields,
      email: fields.email === '' ? email : fields.email,
      password: fields.password === '' ? password : fields.password,
    }));
  }, [form, setSignIn]);
}

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    // Disabled until the page is live: a prerendered form has no handler yet, and Enter in a field
    // would otherwise submit it the browser's way (a GET with the password in the address).
    <Button type="submit" className="w-full" disabled={pending || !hydrated} aria-busy={pending}>
      {pending && <Loader2 aria-hidden="true" className="animate-spin" />}
      {pending ? pendingLabel : children}
    </Button>
  );
}

function BrandMark() {
  return (
    <>
      <span className="grid size-9 place-items-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <Cpu aria-hidden="true" className="size-5" />
      </span>
      <span className="text-2xl font-semibold tracking-tight">Nexus</span>
      <Badge variant="outline" className="border-primary/40 text-primary">
        Alpha
      </Badge>
    </>
  );
}

const highlights = [
  {
    icon: AudioLines,
    title: 'Voice at home',
    text: 'Satellites, wake words and the speech pipeline that answers them.',
  },
  {
    icon: House,
    title: 'Home Assistant',
    text: 'Devices, entities and the logbook, reached through the hub.',
  },
  {
    icon: KeyRound,
    title: 'Yours to keep',
    text: 'Accounts and settings live in the hub’s own database, not in a cloud account.',
  },
];

function BrandPanel() {
  const headingId = useId();
  return (
    <aside
      aria-labelledby={headingId}
      className="relative hidden flex-col justify-between overflow-hidden border-r bg-muted/50 p-10 lg:flex"
    >
      <div className="flex items-center gap-2">
        <BrandMark />
      </div>
      <div className="max-w-md space-y-8">
        <div className="space-y-3">
          <h1 id={headingId} className="text-3xl font-semibold tracking-tight text-balance">
            The console for your Nexus hub
          </h1>
          <p className="text-muted-foreground">
            Nexus Console runs on the hub itself. It watches the hardware, manages its containers and local
            models, and connects your voice satellites with Home Assistant.
          </p>
        </div>
        <ul className="space-y-5">
          {highlights.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <span className="grid size-9 shrink-0 place-items-center rounded-md border bg-background text-primary">
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <div>
                <p className="font-medium">{title}</p>
                <p className="text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <p className="text-xs text-muted-foreground">
        Alpha software: screens and features are still arriving.
      </p>
    </aside>
  );
}

function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Hint label={label}>
      <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label}>
        <ThemeIcon />
      </Button>
    </Hint>
  );
}
