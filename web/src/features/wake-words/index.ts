export { WakeWordsPage } from './components/wake-words-page';
export { TrainingPage } from './components/training-page';
export { MicTestPage, MicDiagnosticPage } from './components/mic-test-page';
export { CrowdsourcePage } from './components/crowdsource-page';
