// Applies the theme before first paint (spec §4: stored value, else the system preference, else
// light). A file of its own rather than an inline script: the Content-Security-Policy runs no
// inline script (agent/src/http/security-headers.ts).
/* global window, document */
(function () {
  try {
    var stored = localStorage.getItem('theme');
    var dark = stored ? stored === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.classList.add(dark ? 'dark' : 'light');
  } catch {
    // No storage (private mode): the page keeps its default theme.
  }
})();
