export { OnboardingPage } from './components/onboarding-page';
