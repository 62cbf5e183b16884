export { Brand } from './components/brand';
export { MobileMenu } from './components/mobile-menu';
export { AppLink, navLinkClass, scrollToHash } from './components/nav-link';
export { PrimaryNav } from './components/primary-nav';
export { ThemeToggle } from './components/theme-toggle';
export { ToolsMenu } from './components/tools-menu';
export { RoleBadge, UserMenu } from './components/user-menu';
export * from './nav-items';
