export { AccountSettingsPage } from './components/account-settings-page';
export { EnrollPasskeyPage } from './components/enroll-passkey-page';
