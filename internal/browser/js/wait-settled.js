// Resolves once minMs milliseconds have passed and the page has been quiet
// for quietMs: no resource loaded, no long task, layout shift,
// largest-paint candidate or input event (as a PerformanceObserver sees
// them); after capMs at most.
(minMs, quietMs, capMs) => new Promise(resolve => {
  let timer;
  const start = performance.now();
  const types = ['resource', 'longtask', 'layout-shift', 'largest-contentful-paint', 'event'];
  const done = () => { obs.disconnect(); clearTimeout(timer); clearTimeout(cap); resolve(); };
  const bump = () => {
    clearTimeout(timer);
    timer = setTimeout(done, Math.max(quietMs, minMs - (performance.now() - start)));
  };
  const obs = new PerformanceObserver(bump);
  for (const type of types) { try { obs.observe({type}); } catch {} }
  const cap = setTimeout(done, capMs);
  bump();
})
