// Installs hexarena's service worker (/sw.js) so the app starts offline,
// and tells the page when a new version has been fetched in the
// background. That version takes over when the person leaves this page, so
// the next page is new whole and this one keeps the bundles it started with.
if ('serviceWorker' in navigator) {
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
      const takeOver = () => registration.waiting?.postMessage('take-over');
      // A version still waiting when a page opens was fetched for this
      // navigation: let it take over now.
      takeOver();
      registration.addEventListener('updatefound', () => {
        const next = registration.installing;
        next?.addEventListener('statechange', () => {
          if (next.state === 'installed' && navigator.serviceWorker.controller) announce();
        });
      });
      addEventListener('pagehide', takeOver);
      // "Reload now" in the notice: the new version first, then the page.
      addEventListener('hexarena-reload', () => {
        if (!registration.waiting) return location.reload();
        navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
        takeOver();
        setTimeout(() => location.reload(), 3000);
      });
    },
    (error) => console.warn('hexarena works online only here: the service worker was refused', error),
  );
}
