export { SatelliteManagementPage } from './components/satellite-management-page';
