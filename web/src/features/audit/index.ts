export { AuthDashboardPage } from './components/auth-dashboard-page';
