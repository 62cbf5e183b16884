export { SpeechPanel } from './components/speech-panel';
