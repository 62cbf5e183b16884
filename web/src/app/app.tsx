import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { AuthPage, AuthProvider, useAuth } from '@/features/auth';
import { queryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme-provider';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider>
          <AuthProvider>
            <AppRoutes />
            <Toaster />
          </AuthProvider>
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

function AppRoutes() {
  const { user, isLoading } = useAuth();

  // Spec §2: a spinner while the session loads.
  if (isLoading) {
    return (
      <div className="grid min-h-dvh place-items-center">
        <Spinner className="size-8 text-muted-foreground" />
      </div>
    );
  }

  // Spec §2: signed out, any path other than the public ones shows the auth screen.
  if (!user) {
    return (
      <Switch>
        <Route path="/auth" component={AuthPage} />
        <Route component={AuthPage} />
      </Switch>
    );
  }

  return (
    <Switch>
      {/* The auth screen sends signed-in visitors on to /dashboard itself. */}
      <Route path="/auth" component={AuthPage} />
      <Route component={SignedInHome} />
    </Switch>
  );
}

function SignedInHome() {
  const { user, logoutMutation, isLoggingOut } = useAuth();
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle role="heading" aria-level={1} className="text-xl">
            Nexus Console
          </CardTitle>
          <CardDescription>
            Signed in as {user?.name} ({user?.email}).
          </CardDescription>
        </CardHeader>
        <CardFooter>
          <Button variant="outline" onClick={() => logoutMutation.mutate()} disabled={isLoggingOut}>
            {isLoggingOut ? 'Signing out...' : 'Sign Out'}
          </Button>
        </CardFooter>
      </Card>
    </main>
  );
}
