// Ends the action effects-watch.js recorded and resolves once its effects
// are over: "none" when nothing was pending and nothing new started within
// windowMs and, with frames, the next animation frame (where Chrome hands
// the page mouse moves); otherwise (pending timers or requests, a navigation, new DOM
// mutations) "settled" once nothing is pending and the page was quiet for
// quietMs, or "capped" after capMs. "lost" means the recording is gone
// (another document). The result is {outcome, changed}: changed tells
// whether the DOM changed or the focus moved since the recording began.
(windowMs, quietMs, capMs, frames) => new Promise(resolve => {
  const t = window[Symbol.for('devtools-mcp effects')];
  if (!t) { resolve({outcome: 'lost', changed: true}); return; }
  t.acting = false;
  const start = performance.now();
  const later = (fn, ms) => t.setTimeout.call(window, fn, ms);
  const busy = () => {
    const n = performance.now();
    for (const [id, until] of t.pending) if (until <= n) t.pending.delete(id);
    return t.pending.size > 0;
  };
  const end = outcome => {
    const changed = t.mutated || t.focused() !== t.focus;
    t.stop();
    resolve({outcome, changed});
  };
  let waiting = t.opened || busy(); // what the action started is still going
  t.active = false;
  t.last = start;
  const check = () => {
    const n = performance.now();
    if (!waiting && !t.active && !busy()) return end('none');
    waiting = true;
    if (n - start >= capMs) return end('capped');
    if (!busy() && n - t.last >= quietMs) return end('settled');
    later(check, 10);
  };
  if (waiting || windowMs <= 0) return check();
  let framed = !frames, timed = false, begun = false;
  const ready = () => { if (framed && timed && !begun) { begun = true; check(); } };
  const frame = () => { framed = true; ready(); };
  if (frames) {
    t.requestAnimationFrame?.call(window, () => later(frame, 0));
    later(frame, 100); // a hidden page draws no frames
  }
  // Without frames the window is one timer's turn: timers of no delay the
  // action set run first.
  later(() => { timed = true; ready(); }, frames ? windowMs : 0);
})
