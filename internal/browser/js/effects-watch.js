// Starts recording what the page does, so that effects-settle.js can tell
// whether an action set anything going: DOM mutations, navigations, window.open,
// fetch and XMLHttpRequest requests until they end, and, while the action
// runs, timers and animation frames due within horizonMs and posted messages.
// Timers set later (a page's own polling) are not followed: their effects
// show as mutations and requests. The page's functions are wrapped only
// until effects-settle.js ends the recording, or for lifeMs at most (an
// action that never reaches effects-settle.js leaves nothing behind).
// It also notes whether the DOM changed at all and where the focus was,
// for effects-settle.js to tell whether the page changed for the agent.
(horizonMs, lifeMs) => {
  const key = Symbol.for('devtools-mcp effects');
  window[key]?.stop();
  const w = window, now = () => performance.now(), restore = [];
  const focused = () => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  const t = {
    acting: true, active: false, opened: false, last: 0, seq: 0, mutated: false, focused,
    focus: focused(),
    pending: new Map(), // id -> time after which it is no longer awaited
    timers: new Map(), // timer handle -> id
    setTimeout: w.setTimeout, clearTimeout: w.clearTimeout, requestAnimationFrame: w.requestAnimationFrame,
  };
  const touch = () => { t.last = now(); t.active = true; };
  const hold = ms => { const id = ++t.seq; t.pending.set(id, now() + ms); touch(); return id; };
  const release = id => { if (t.pending.delete(id)) touch(); };
  const patch = (obj, name, make) => {
    const orig = obj?.[name];
    if (typeof orig !== 'function') return;
    const wrapped = make(orig);
    obj[name] = wrapped;
    restore.push(() => { if (obj[name] === wrapped) obj[name] = orig; });
  };
  const grace = 50; // a due timer may run a little late
  const timer = (orig, repeat) => function (fn, delay, ...args) {
    const ms = Math.max(Number(delay) || 0, 0);
    if (!t.acting || typeof fn !== 'function' || ms > horizonMs) return orig.call(this, fn, delay, ...args);
    const id = hold(ms + grace);
    const handle = orig.call(this, function (...a) {
      try { return fn.apply(this, a); } finally { if (!repeat) t.timers.delete(handle); release(id); }
    }, delay, ...args);
    t.timers.set(handle, id);
    return handle;
  };
  const clear = orig => function (handle) {
    const id = t.timers.get(handle);
    if (id !== undefined) { t.timers.delete(handle); t.pending.delete(id); }
    return orig.call(this, handle);
  };
  patch(w, 'setTimeout', orig => timer(orig, false));
  patch(w, 'setInterval', orig => timer(orig, true));
  patch(w, 'clearTimeout', clear);
  patch(w, 'clearInterval', clear);
  patch(w, 'requestAnimationFrame', orig => function (fn) {
    if (!t.acting || typeof fn !== 'function') return orig.call(this, fn);
    const id = hold(100);
    return orig.call(this, function (...a) { try { return fn.apply(this, a); } finally { release(id); } });
  });
  const post = orig => function (...a) {
    if (t.acting) hold(grace);
    return orig.apply(this, a);
  };
  patch(w, 'postMessage', post);
  patch(w.MessagePort?.prototype, 'postMessage', post);
  patch(w, 'fetch', orig => function (...a) {
    const id = hold(3600e3);
    const p = orig.apply(this, a);
    p.then(() => release(id), () => release(id));
    return p;
  });
  patch(w.XMLHttpRequest?.prototype, 'send', orig => function (...a) {
    const id = hold(3600e3);
    this.addEventListener('loadend', () => release(id), {once: true});
    return orig.apply(this, a);
  });
  patch(w, 'open', orig => function (...a) { t.opened = true; touch(); return orig.apply(this, a); });
  const onNavigate = () => { t.opened = true; touch(); };
  w.navigation?.addEventListener('navigate', onNavigate);
  const obs = new MutationObserver(() => { t.mutated = true; touch(); });
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const expiry = t.setTimeout.call(w, () => t.stop(), lifeMs);
  t.stop = () => {
    t.clearTimeout.call(w, expiry);
    obs.disconnect();
    w.navigation?.removeEventListener('navigate', onNavigate);
    for (const r of restore) r();
    if (w[key] === t) delete w[key];
  };
  Object.defineProperty(w, key, {value: t, configurable: true});
}
