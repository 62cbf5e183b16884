export { NexusManagementPage, nexusManagementScreen } from './components/nexus-management-page';
export { HubsPage } from './components/hubs-page';
