export { SetupPage } from './components/setup-page';
export { InstallWizard } from './components/install-wizard';
