/**
 * Registers the console's service worker (web/public/sw.js) once the page has loaded, so it does
 * not compete with the first screen for the network. Only built consoles have one: under the Vite
 * dev server it would cache modules that hot reload replaces. Browsers without service workers, or
 * pages not served from a secure context (plain http on a LAN address), simply go without it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Not installable here (e.g. an insecure origin): the console works the same without it.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
