// Gets a document ready for a snapshot in one call, and tells how to read
// it: whether pagewalk.js should (it did before, or the document has an
// HTML body and at least `threshold` elements; never when threshold is
// negative), else Chromium's accessibility tree.
//
// With `render` it first waits until the document has been rendered at
// least once: at once when it has painted, else after its next frame: up
// to 3 s for a visible document (the first frame of a browser just started
// on a busy machine takes that long), 50 ms for a hidden one, which is not
// drawn. Until its first rendering update Chromium has not decided which
// content-visibility:auto sections are near the viewport and leaves them
// all out of the accessibility tree: a snapshot taken right after the load
// showed an empty page.
async function (threshold, render) {
  if (render && performance.getEntriesByType('paint').length === 0) {
    await new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve));
      setTimeout(resolve, document.visibilityState === 'hidden' ? 50 : 3000);
    });
  }
  if (threshold < 0) return false;
  if (globalThis.__devtoolsMcp?.scripted) return true;
  return document.body?.localName === 'body' && document.getElementsByTagName('*').length >= threshold;
}
