// Scrolls this <iframe> element into view in its own frame and returns
// its content-box origin there.
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
  await scrollFrame(this);
  const r = this.getBoundingClientRect(), s = getComputedStyle(this);
  return {x: r.left + this.clientLeft + parseFloat(s.paddingLeft), y: r.top + this.clientTop + parseFloat(s.paddingTop)};
}
