export { BackupsSection } from './components/backups-section';
export { RestoreForm } from './components/restore-form';
export { BACKUP_PATHS } from '@/data/backups';
