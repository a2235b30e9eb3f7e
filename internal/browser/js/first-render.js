// Resolves once the document has been rendered at least once: at once when
// it has painted, else after its next frame: up to 3 s for a visible
// document (the first frame of a browser just started on a busy machine
// takes that long), 50 ms for a hidden one, which is not drawn. Until its
// first rendering update Chromium has not decided which
// content-visibility:auto sections are near the viewport and leaves them
// all out of the accessibility tree: a snapshot taken right after the load
// showed an empty page.
() => performance.getEntriesByType('paint').length > 0 || new Promise((resolve) => {
  const done = () => resolve(false);
  requestAnimationFrame(() => setTimeout(done));
  setTimeout(done, document.visibilityState === 'hidden' ? 50 : 3000);
})
