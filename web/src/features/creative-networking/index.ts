export { CreativeNetworkingPage } from './components/creative-networking-page';
