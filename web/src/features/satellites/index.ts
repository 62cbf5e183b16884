export { SatelliteManagementPage } from './components/satellite-management-page';
export { SatelliteManagementLegacyPage } from './components/legacy-page';
export { SatelliteControlsPage } from './components/satellite-controls-page';
export { Sat1ControlPage } from './components/sat1-control-page';
