export { AutomationsPage } from './components/automations-page';
