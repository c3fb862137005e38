// Installs hexarena's service worker (/sw.js) so the app starts offline,
// and tells the page when a new version has been fetched in the
// background. That version takes over when the person leaves this page, so
// the next page is new whole and this one keeps the bundles it started with.
if ('serviceWorker' in navigator) {
  const updating = !!navigator.serviceWorker.controller;

  // The page shows the notice once it runs (src/components/layout.rs).
  const announce = () => {
    const fire = () => dispatchEvent(new Event('hexarena-update'));
    const ready = () => document.body?.dataset.hydrated === 'true';
    if (ready()) return fire();
    const watch = new MutationObserver(() => {
      if (ready()) {
        watch.disconnect();
        fire();
      }
    });
    watch.observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
  };

  navigator.serviceWorker.register('/sw.js').then(
    (registration) => {
      // Some browsers (and automation that blocks workers) register nothing.
      if (!registration) return;
      if (registration.waiting && updating) announce();
      registration.addEventListener('updatefound', () => {
        const next = registration.installing;
        next?.addEventListener('statechange', () => {
          if (next.state === 'installed' && navigator.serviceWorker.controller) announce();
        });
      });
      addEventListener('pagehide', () => registration.waiting?.postMessage('take-over'));
    },
    (error) => console.warn('hexarena works online only here: the service worker was refused', error),
  );
}
