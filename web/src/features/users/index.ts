export { UserManagementPage } from './components/user-management-page';
