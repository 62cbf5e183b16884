export { NotificationsMenu } from './components/notifications-menu';
