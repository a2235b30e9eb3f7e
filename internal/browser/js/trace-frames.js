// Resolves with the layout viewport ("1280x633 CSS pixels at device pixel
// ratio 1") once the page has begun `frames` animation frames and run a
// task after the last: the interactions it handled before have been
// presented by then, and Chrome has written their Event Timing to the
// trace. A page that draws no frames resolves after capMs.
(frames, capMs) => new Promise(resolve => {
  const done = () => resolve(innerWidth + 'x' + innerHeight + ' CSS pixels at device pixel ratio ' + devicePixelRatio);
  let left = frames;
  const frame = () => { if (--left > 0) requestAnimationFrame(frame); else setTimeout(done, 0); };
  if (left > 0) requestAnimationFrame(frame); else done();
  setTimeout(done, capMs);
})
