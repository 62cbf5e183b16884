export { AccountSettingsPage } from './components/account-settings-page';
export { ReauthProvider, ReauthDialog, useReauth, isReauthRequired } from './reauth/reauth';
export { SessionsList, describeSession } from './components/sessions-list';
export { TwoFactorTestPage } from './components/two-factor-test-page';
