export { ConnectionsPage } from './components/connections-page';
export { UnifiTeleportPage } from './components/unifi-teleport-page';
