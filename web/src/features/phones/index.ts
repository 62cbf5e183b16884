export { PhoneAdminPage } from './components/phone-admin-page';
export { PairPage } from './components/pair-page';
