// Finds the point where a user would click this element, bringing it into
// view as a user's scroll would, and checks that a click there reaches it.
// Returns {x, y} in the viewport of the topmost frame this document can
// read (crossOrigin: the frame hops frames up from this element's is
// another origin's child, whose <iframe> the caller asks next), or
// {fail, what} saying why not. With
// inner (a point in this <iframe>'s content), it checks that point in the
// <iframe>'s own frame instead. With watching, the presses on this
// element's window are watched from then on, for click-landed.js. With
// steady, it first waits for the element to stop moving (a click before
// landed elsewhere because it moved).
async function(inner, watching, steady) {
  const el = this, doc = el.ownerDocument, win = doc.defaultView;
  // describe names an element the way an agent can recognize it: tag, id
  // or first class, and the start of its text.
  function describe(n) {
    if (!n || n.nodeType !== 1) return 'nothing';
    let d = '<' + n.localName + (n.id ? '#' + n.id : (n.classList[0] ? '.' + n.classList[0] : '')) + '>';
    const t = (n.innerText || n.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return t ? d + ' "' + t.slice(0, 40) + '"' : d;
  }
  // reaches tells whether a click on n gets to el: n is el, inside it
  // (across shadow roots), or a label of it.
  function reaches(n) {
    for (let m = n; m; m = m.parentNode || m.host) if (m === el) return true;
    const l = n && n.closest && n.closest('label');
    return !!l && l.control === el;
  }
  // frame waits for the window to be drawn once more; a tab in the
  // background is not drawn, and is given 50 ms instead.
  function frame(w) {
    const wait = w.document.visibilityState === 'hidden' ? 50 : 1000;
    return new Promise(done => { w.requestAnimationFrame(() => done()); setTimeout(done, wait); });
  }
  // scrollFrame scrolls the <iframe> element fe into view in its frame.
  // When that moved it, it waits for the frame to be drawn: the browser
  // sends clicks into a cross-process iframe by where it was last drawn.
  // frame-offset.js and frame-offsets.js have the same: keep them in step.
  async function scrollFrame(fe) {
    const before = fe.getBoundingClientRect();
    fe.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
    const after = fe.getBoundingClientRect();
    if (after.top !== before.top || after.left !== before.left) {
      const w = fe.ownerDocument.defaultView;
      await frame(w);
      await frame(w);
    }
  }
  function origin(fe) {
    const r = fe.getBoundingClientRect(), s = getComputedStyle(fe);
    return {x: r.left + fe.clientLeft + parseFloat(s.paddingLeft), y: r.top + fe.clientTop + parseFloat(s.paddingTop)};
  }
  function hitAt(root, x, y) {
    return (root.elementFromPoint ? root : root.ownerDocument).elementFromPoint(x, y);
  }
  // viewport is the part of the frame's window a click can reach: without
  // its scroll bars.
  function viewport(d) {
    const w = d.defaultView, sc = d.compatMode === 'BackCompat' ? d.body : d.documentElement;
    return {w: (sc && sc.clientWidth) || w.innerWidth, h: (sc && sc.clientHeight) || w.innerHeight};
  }
  function boxes(n) {
    return Array.from(n.getClientRects()).filter(r => r.width > 0 && r.height > 0);
  }
  // pick tries the centre of each of t's boxes inside the viewport, then
  // points around it (a header may cover part of it): the first that
  // reaches el, else what covers the first tried, else null when no box
  // is in view.
  function pick(t) {
    const v = viewport(doc), root = el.getRootNode();
    let blocker;
    for (const r of boxes(t).slice(0, 20)) {
      const l = Math.max(r.left, 0), tp = Math.max(r.top, 0), ri = Math.min(r.right, v.w), b = Math.min(r.bottom, v.h);
      if (ri - l < 1 || b - tp < 1) continue;
      for (const [fx, fy] of [[.5, .5], [.5, .2], [.5, .8], [.2, .5], [.8, .5], [.2, .2], [.8, .2], [.2, .8], [.8, .8]]) {
        const x = l + (ri - l) * fx, y = tp + (b - tp) * fy, hit = hitAt(root, x, y);
        if (reaches(hit)) return {x, y};
        if (blocker === undefined) blocker = hit;
      }
    }
    return blocker === undefined ? null : {blocker};
  }
  // settle waits until t's place has not changed for three frames, and
  // no section has started or stopped rendering meanwhile: sections that
  // render only near the viewport (content-visibility: auto) take their
  // real size a few frames after the scroll that brought them near, and
  // move what is below them. It gives up after about a second.
  async function settle(t) {
    const place = () => { const r = t.getBoundingClientRect(); return r.left + ',' + r.top + ',' + r.width + ',' + r.height; };
    let changes = 0;
    const changed = () => { changes++; };
    doc.addEventListener('contentvisibilityautostatechange', changed, true);
    try {
      const start = performance.now();
      let last = place(), still = 0;
      while (still < 3 && performance.now() - start < 1000) {
        const before = changes;
        await frame(win);
        const now = place();
        const rendered = !t.checkVisibility || t.checkVisibility({contentVisibilityAuto: true});
        still = now === last && changes === before && rendered ? still + 1 : 0;
        last = now;
        const r = t.getBoundingClientRect(), v = viewport(doc);
        if (r.bottom <= 0 || r.top >= v.h || r.right <= 0 || r.left >= v.w) t.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
      }
    } finally {
      doc.removeEventListener('contentvisibilityautostatechange', changed, true);
    }
  }

  // watch records where each press on el's window lands for the next
  // five seconds (the click follows at once; a watch its caller could not
  // end, as when the click opened a dialog, must not outlive it), until a
  // newer watch replaces it. Once one lands on another element (the page
  // moved after the check above), it and the mouse events after it are
  // stopped here, before the page's own listeners on the element see
  // them, and click-landed.js reports it.
  function watch() {
    if (!watching) return;
    const S = Symbol.for('devtools-mcp click watch');
    const rec = {el, landed: '', until: performance.now() + 5000, types: ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick']};
    rec.h = e => {
      if (win[S] !== rec || performance.now() > rec.until) return;
      if (e.type === 'pointerdown' && !rec.landed && !e.composedPath().some(n => n === el || (n.localName === 'label' && n.control === el))) rec.landed = describe(e.target);
      if (rec.landed) { e.preventDefault(); e.stopImmediatePropagation(); }
    };
    // Whether the mouse has moved into the window since, for
    // click-moved.js.
    rec.moves = ['pointermove', 'mousemove'];
    rec.m = () => { rec.moved = true; };
    const old = win[S];
    if (old) {
      for (const type of old.types) win.removeEventListener(type, old.h, true);
      for (const type of old.moves || []) win.removeEventListener(type, old.m, true);
    }
    Object.defineProperty(win, S, {value: rec, configurable: true});
    for (const type of rec.types) win.addEventListener(type, rec.h, true);
    for (const type of rec.moves) win.addEventListener(type, rec.m, true);
  }

  let x, y;
  if (inner) {
    await scrollFrame(el);
    const o = origin(el);
    x = inner.x + o.x, y = inner.y + o.y;
    const hit = hitAt(el.getRootNode(), x, y);
    if (hit !== el) return {fail: hit ? 'covered' : 'outside', what: describe(hit)};
  } else {
    if (el.localName === 'option' && el.closest('select') && !(el.closest('select').size > 1 || el.closest('select').multiple)) return {fail: 'option'};
    // An element with no box of its own is clicked through a label of it
    // or a part of it that has one.
    let t = boxes(el).length ? el : null;
    for (const l of t ? [] : el.labels || []) if (!t && boxes(l).length) t = l;
    if (!t) for (const d of Array.from(el.querySelectorAll('*')).slice(0, 500)) if (boxes(d).length) { t = d; break; }
    if (!t) return {fail: 'nosize'};
    if (steady) await settle(t);
    let p = pick(t);
    for (let tries = 0; !(p && p.x !== undefined) && tries < 2; tries++) {
      t.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
      await settle(t);
      p = pick(t);
    }
    if (!(p && p.x !== undefined) && t.checkVisibility && !t.checkVisibility({visibilityProperty: true})) return {fail: 'hidden'};
    if (!p) return {fail: 'outside'};
    if (p.x === undefined) {
      const what = describe(p.blocker);
      if (getComputedStyle(t).pointerEvents === 'none') return {fail: 'nopointer', what};
      for (let m = el; m; m = m.parentNode || m.host) if (m === p.blocker) return {fail: 'around', what};
      return {fail: p.blocker ? 'covered' : 'outside', what};
    }
    x = p.x, y = p.y;
  }
  // Up the frames this document can read: each <iframe> in view, and the
  // point in it not covered in its parent.
  for (let w = win, hops = 0; w !== w.top; w = w.parent, hops++) {
    let fe = null;
    try { fe = w.frameElement; } catch (_) {}
    if (!fe) { if (!inner) watch(); return {x, y, crossOrigin: true, hops}; }
    await scrollFrame(fe);
    const o = origin(fe);
    x += o.x, y += o.y;
    const hit = hitAt(fe.getRootNode(), x, y);
    if (hit !== fe) return {fail: hit ? 'covered' : 'outside', what: describe(hit)};
  }
  if (!inner) watch();
  return {x, y};
}
