import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { isAdminRole, type LoginInput, type PublicUser, type RegisterInput } from '@nexus/agent/contract';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import {
  authUserQueryOptions,
  confirmNewSession,
  forgetAccount,
  isExistingAccount,
  isTwoFactorRequired,
  login,
  logout,
  register,
  rememberSignedIn,
} from '@/data/auth-session';

/** Spec §9: the wait between a successful registration and the move to the dashboard. */
export const REGISTER_REDIRECT_DELAY_MS = 500;

export interface AuthContextValue {
  user: PublicUser | null;
  isLoading: boolean;
  /** A failed user check other than 401/404; the last known user is kept (spec §4). */
  error: Error | null;
  isAdmin: boolean;
  loginMutation: UseMutationResult<PublicUser, Error, LoginInput>;
  registerMutation: UseMutationResult<PublicUser, Error, RegisterInput>;
  logoutMutation: UseMutationResult<void, Error, void>;
  isLoggingOut: boolean;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const userQuery = useQuery(authUserQueryOptions());
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const registerMutationRef = useRef<{ reset: () => void } | null>(null);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const loginMutation = useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      rememberSignedIn(queryClient, user);
      toast({ title: 'Login successful', description: 'Welcome back!' });
    },
    onError: (error) => {
      if (isTwoFactorRequired(error)) {
        toast({ title: '2FA Required', description: 'Please enter your two-factor authentication code.' });
        return;
      }
      toast({
        title: 'Login failed',
        description: errorMessage(error) ?? 'Please check your credentials',
        variant: 'destructive',
      });
    },
  });

  const registerMutation = useMutation({
    mutationFn: register,
    onSuccess: async () => {
      toast({ title: 'Registration successful', description: 'You are now logged in.' });
      clearTimeout(redirectTimer.current);
      redirectTimer.current = setTimeout(() => {
        navigate('/dashboard');
        // The auth screen holds its own redirect while this one is pending (see AuthPage).
        registerMutationRef.current?.reset();
      }, REGISTER_REDIRECT_DELAY_MS);
      await confirmNewSession(queryClient);
    },
    onError: (error) => {
      if (isExistingAccount(error)) {
        toast({ title: 'Account Already Exists', description: errorMessage(error) });
        return;
      }
      toast({
        title: 'Registration failed',
        description:
          error instanceof Error
            ? (errorMessage(error) ?? 'An error occurred during registration')
            : 'An unexpected error occurred',
        variant: 'destructive',
      });
    },
  });

  useEffect(() => {
    registerMutationRef.current = registerMutation;
  });

  const logoutMutation = useMutation({
    mutationFn: logout,
    onSuccess: () => {
      toast({ title: 'Logged out', description: 'You have been logged out successfully.' });
    },
    onError: () => {
      toast({
        title: 'Logout issue',
        description: 'Logged out locally. Please refresh if you see any issues.',
      });
    },
    // Spec §4: the user is cleared even when the server could not be told.
    onSettled: () => {
      forgetAccount(queryClient);
      navigate('/auth');
    },
  });

  const user = userQuery.data ?? null;
  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      isLoading: userQuery.isLoading,
      error: userQuery.error,
      isAdmin: user ? isAdminRole(user.role) : false,
      loginMutation,
      registerMutation,
      logoutMutation,
      isLoggingOut: logoutMutation.isPending,
    }),
    [user, userQuery.isLoading, userQuery.error, loginMutation, registerMutation, logoutMutation],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}
