export { ActivationPage } from './components/activation-page';
export { BillingPage } from './components/billing-page';
export { CheckoutPage, PricingScreen } from './components/checkout-page';
export { GraceBanner } from './components/grace-banner';
export { PurchaseHistoryPage } from './components/purchase-history-page';
