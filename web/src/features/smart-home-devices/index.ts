export { SmartHomeDevicesPage } from './components/smart-home-devices-page';
