// What the page must know before its first paint, so that the prerendered page (web/vite-prerender.ts)
// is drawn as it will stay once its code has run. A file of its own rather than an inline script:
// the Content-Security-Policy runs no inline script (agent/src/http/security-headers.ts).
/* global window, document */
(function () {
  var root = document.documentElement;
  // Passkeys need WebAuthn, which a browser offers only in a secure context (HTTPS or localhost):
  // without it the sign-in screen's passkey button is hidden from the first paint rather than
  // removed once the page is live, which would move the form under a person's finger.
  if (typeof window.PublicKeyCredential !== 'function') root.classList.add('no-passkeys');
  // The theme (spec §4: stored value, else the system preference, else light).
  try {
    var stored = localStorage.getItem('theme');
    var dark = stored ? stored === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    root.classList.add(dark ? 'dark' : 'light');
  } catch {
    // No storage (private mode): the page keeps its default theme.
  }
})();
