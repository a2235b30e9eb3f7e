// Returns "" when a click at (x, y), the element's centre, reaches it (or
// its label), else a description of the element that would get the click.
function(x, y) {
  // describe names an element the way an agent can recognize it: tag, id
  // or first class, and the start of its text.
  function describe(n) {
    if (!n || n.nodeType !== 1) return 'nothing';
    let d = '<' + n.localName + (n.id ? '#' + n.id : (n.classList[0] ? '.' + n.classList[0] : '')) + '>';
    const t = (n.innerText || n.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return t ? d + ' "' + t.slice(0, 40) + '"' : d;
  }
  const root = this.getRootNode();
  const hit = (root.elementFromPoint ? root : this.ownerDocument).elementFromPoint(x, y);
  for (let n = hit; n; n = n.parentNode || n.host) if (n === this) return '';
  if (hit && hit.closest && hit.closest('label') && hit.closest('label').control === this) return '';
  return describe(hit);
}
