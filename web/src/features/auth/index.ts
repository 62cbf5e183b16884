export { AuthProvider, useAuth, REGISTER_REDIRECT_DELAY_MS, type AuthContextValue } from './auth-provider';
// The sign-in screen is not re-exported: the route table loads it by path, so screens that import
// useAuth from here do not bring it along (issue 26).
export { authUserQueryKey, authUserQueryOptions } from '@/data/auth-session';
