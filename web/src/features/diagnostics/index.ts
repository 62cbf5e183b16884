export { DiagnosticsPage } from './components/diagnostics-page';
