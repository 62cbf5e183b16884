export { NetworkInfoPage } from './components/network-info-page';
