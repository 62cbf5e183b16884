export { DashboardPage, prefetchDashboard } from './components/dashboard-page';
