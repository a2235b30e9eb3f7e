// Tells whether the mouse has moved into this element's window since
// click-point.js started watching it (true when nothing watches). When
// not, it first waits for the window to be drawn once (100 ms at most),
// after which the browser knows where the window is and the caller moves
// the mouse again.
async function() {
  const w = this.ownerDocument.defaultView, rec = w[Symbol.for('devtools-mcp click watch')];
  if (!rec || rec.el !== this || rec.moved) return true;
  await new Promise(done => { w.requestAnimationFrame(() => done()); setTimeout(done, 100); });
  return false;
}
