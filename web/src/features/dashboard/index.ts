export { DashboardPage } from './components/dashboard-page';
export { prefetchDashboard } from './components/dashboard-page';
