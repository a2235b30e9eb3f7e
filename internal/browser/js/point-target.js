// Describes the element a click at (x, y) of the viewport reaches, inside
// the frames and open shadow roots it can read: {what}, or {width,
// height} of the viewport when the point is outside it.
function(x, y) {
  // describe names an element the way an agent can recognize it: tag, id
  // or first class, and the start of its text (as click-point.js does).
  function describe(n) {
    if (!n || n.nodeType !== 1) return 'nothing';
    let d = '<' + n.localName + (n.id ? '#' + n.id : (n.classList[0] ? '.' + n.classList[0] : '')) + '>';
    const t = (n.innerText || n.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return t ? d + ' "' + t.slice(0, 40) + '"' : d;
  }
  if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return {width: innerWidth, height: innerHeight};
  let n = document.elementFromPoint(x, y);
  for (let depth = 0; n && depth < 32; depth++) {
    if (n.shadowRoot) {
      const m = n.shadowRoot.elementFromPoint(x, y);
      if (!m || m === n) break;
      n = m;
      continue;
    }
    let inner = null;
    try { inner = (n.localName === 'iframe' || n.localName === 'frame') && n.contentDocument; } catch (_) {}
    if (!inner) break;
    const r = n.getBoundingClientRect(), s = getComputedStyle(n);
    x -= r.left + n.clientLeft + parseFloat(s.paddingLeft);
    y -= r.top + n.clientTop + parseFloat(s.paddingTop);
    const m = inner.elementFromPoint(x, y);
    if (!m) break;
    n = m;
  }
  return {what: describe(n)};
}
