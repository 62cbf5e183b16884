import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useToast } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { lazyComponent } from '@/lib/lazy-code';
import { queryClient } from '@/lib/query-client';
import { useBrowserIdle } from '@/lib/use-browser-idle';
import { ThemeProvider } from '@/lib/theme-provider';
import { AppRouter } from './router';

const Toaster = lazyComponent(async () => (await import('@/components/ui/toaster')).Toaster).Component;

/**
 * The toasts' viewport (Radix Toast) is not part of the first page (issue 26): it loads once the
 * browser is idle after the first screen, or at the first toast, whichever comes first. Toasts
 * raised before it has loaded wait in the store (use-toast) and show when it has.
 */
function DeferredToaster() {
  const { toasts } = useToast();
  const idle = useBrowserIdle();
  const [firstToast, setFirstToast] = useState(false);
  // Once mounted it stays: a first toast mounts it for good.
  if (!firstToast && toasts.length > 0) setFirstToast(true);
  if (!idle && !firstToast) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/** `client`: the build's prerender (web/src/prerender.tsx) gives each page a client of its own. */
export function App({ client = queryClient }: { client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          <AppRouter />
          <DeferredToaster />
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
