export { GalleryPage } from './components/gallery-page';
export { BuilderPage } from './components/builder-page';
export { ApiKeysPage } from './components/api-keys-page';
export { SimulationsPage } from './components/simulations-page';
