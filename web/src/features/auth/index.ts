export { AuthProvider, useAuth, REGISTER_REDIRECT_DELAY_MS, type AuthContextValue } from './auth-provider';
export { AuthPage } from './components/auth-page';
export { authUserQueryKey, authUserQueryOptions } from '@/data/auth';
