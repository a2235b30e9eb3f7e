// Gets a document ready for a snapshot in one call, and tells how to read
// it: { scripted } is set when pagewalk.js read it before, { body } when it
// has an HTML body, and { elements } counts its elements; the caller
// chooses the reader from them.
//
// With `load` it first waits for the document's load event: navigate_page
// sends it as soon as the new document commits, so that the answer comes
// with the load, not one round trip after it.
//
// With `render` it then waits until the document has been rendered at
// least once: at once when it has painted, else after its next frame: up
// to 3 s for a visible document (the first frame of a browser just started
// on a busy machine takes that long), 50 ms for a hidden one, which is not
// drawn. Until its first rendering update Chromium has not decided which
// content-visibility:auto sections are near the viewport and leaves them
// all out of the accessibility tree: a snapshot taken right after the load
// showed an empty page.
async function (render, load) {
  if (load && document.readyState !== 'complete') {
    await new Promise((resolve) => addEventListener('load', resolve, { once: true }));
  }
  if (render && performance.getEntriesByType('paint').length === 0) {
    await new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve));
      setTimeout(resolve, document.visibilityState === 'hidden' ? 50 : 3000);
    });
  }
  return {
    scripted: !!globalThis.__devtoolsMcp?.scripted,
    body: document.body?.localName === 'body',
    elements: document.getElementsByTagName('*').length,
  };
}
