// Scrolls the element into view and returns the centre of
// its part inside the viewport, in the frame's CSS pixels, or null.
function() {
  const v = this.ownerDocument.defaultView;
  let r = this.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > v.innerHeight || r.right > v.innerWidth) {
    this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = this.getBoundingClientRect();
  }
  const left = Math.max(r.left, 0), top = Math.max(r.top, 0);
  const right = Math.min(r.right, v.innerWidth), bottom = Math.min(r.bottom, v.innerHeight);
  if (right <= left || bottom <= top) return null;
  return {x: (left + right) / 2, y: (top + bottom) / 2};
}
