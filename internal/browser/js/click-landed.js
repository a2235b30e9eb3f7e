// Tells where the presses that click-point.js watched on this element's
// window landed: "" on this element (or when none came), else a
// description of the element the first stray one reached; and ends the
// watch.
function() {
  const w = this.ownerDocument.defaultView, S = Symbol.for('devtools-mcp click watch'), rec = w[S];
  if (!rec || rec.el !== this) return '';
  delete w[S];
  for (const type of rec.types) w.removeEventListener(type, rec.h, true);
  for (const type of rec.moves) w.removeEventListener(type, rec.m, true);
  return rec.landed;
}
