export { DockerPage } from './components/docker-page';
export { LogsPage } from './components/logs-page';
export { ControlPage } from './components/control-page';
