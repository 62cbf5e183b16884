export { AccountSettingsPage } from './components/account-settings-page';
export { EnrollPasskeyPage } from './components/enroll-passkey-page';
export { ReauthProvider, ReauthDialog, useReauth } from './reauth/reauth';
export { SessionsList, describeSession } from './components/sessions-list';
export { TwoFactorTestPage } from './components/two-factor-test-page';
