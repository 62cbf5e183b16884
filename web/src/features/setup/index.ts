export { SetupPage } from './components/setup-page';
export { InstallWizard } from './components/install-wizard';
export { HubName, useHubName } from './components/hub-name';
