export { Brand } from './components/brand';
export { MobileMenu, VisitorMenuItems } from './components/mobile-menu';
export { SignedInItems } from './components/mobile-menu-items';
export { AppLink, navLinkClass, scrollToHash } from './components/nav-link';
export { PrimaryNav } from './components/primary-nav';
export { ThemeToggle } from './components/theme-toggle';
export { ToolsMenu } from './components/tools-menu';
export { RoleBadge, UserMenu } from './components/user-menu';
export * from './nav-items';
