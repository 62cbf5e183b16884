export { ConnectionTestPage } from './components/connection-test-page';
export { DeviceControlPage, HaDevicesPage, HomeAssistantDevicesPage } from './components/device-control-page';
export { EntitiesPage } from './components/entities-page';
export { LogbookPage } from './components/logbook-page';
export { HaUnifiedPage } from './components/unified-page';
