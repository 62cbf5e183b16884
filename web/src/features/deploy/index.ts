export { DeployPage } from './components/deploy-page';
