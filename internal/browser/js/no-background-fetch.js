// Makes background fetches fail under a URL policy: Chrome's download
// service makes them itself, beside every DevTools interception. It runs
// in the main world of every page, iframe and worker before its scripts,
// and replaces BackgroundFetchManager.prototype.fetch for good (neither
// writable nor configurable). A page can still take the function from the
// realm of a new about:blank iframe, where scripts added for new documents
// do not run; a service worker has no other realm.
() => {
  const manager = globalThis.BackgroundFetchManager;
  if (!manager) return;
  Object.defineProperty(manager.prototype, 'fetch', {
    value: function fetch() {
      return Promise.reject(new DOMException('background fetches are refused under the URL policy (--blockedUrlPattern / --allowedUrlPattern)', 'NotAllowedError'));
    },
    writable: false, configurable: false, enumerable: true,
  });
}
