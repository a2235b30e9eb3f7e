// Sums the content-box origins of the frames between this element's
// document and the top one, scrolling each <iframe> into view in its
// parent; crossOrigin tells that a frame on the way cannot be read: the
// sums then stop below it, hops frames up from this element's.
async function() {
  // scrollFrame scrolls the <iframe> element fe into view in its frame
  // (the element to click may sit in a part of the iframe that its parent
  // has scrolled away). When that moved it, it waits for the frame to be
  // drawn (at most 100 ms, for a tab in the background): the browser sends
  // clicks into a cross-process iframe by where it was last drawn.
  // frame-offset.js, frame-offsets.js and click-point.js share it: keep them in step.
  async function scrollFrame(fe) {
    const before = fe.getBoundingClientRect();
    fe.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
    const after = fe.getBoundingClientRect();
    if (after.top !== before.top || after.left !== before.left) {
      const w = fe.ownerDocument.defaultView;
      await new Promise(done => { w.requestAnimationFrame(() => w.requestAnimationFrame(done)); setTimeout(done, 100); });
    }
  }
  const out = [];
  for (let w = this.ownerDocument.defaultView; w !== w.top; w = w.parent) {
    let fe = null;
    try { fe = w.frameElement; } catch (_) {}
    if (!fe) return {x: out.reduce((a, f) => a + f.x, 0), y: out.reduce((a, f) => a + f.y, 0), crossOrigin: true, hops: out.length};
    await scrollFrame(fe);
    const r = fe.getBoundingClientRect(), s = getComputedStyle(fe);
    out.push({x: r.left + fe.clientLeft + parseFloat(s.paddingLeft), y: r.top + fe.clientTop + parseFloat(s.paddingTop)});
  }
  return {x: out.reduce((a, f) => a + f.x, 0), y: out.reduce((a, f) => a + f.y, 0), crossOrigin: false};
}
