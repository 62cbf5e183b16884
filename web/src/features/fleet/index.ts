export { FleetOverview } from './components/fleet-overview';
export { FleetServices } from './components/fleet-services';
export { DeployTarget, HUB_PLACEMENT, type DeployPlacement } from './components/deploy-target';
export { withPlacementConstraints } from './fleet-logic';
