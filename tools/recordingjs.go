package tools

// recordTargetJS runs with an element as this and returns what a Recorder
// step needs of it: its CSS selector chain (one selector per shadow tree,
// outermost first), an XPath when it is not in a shadow tree, a pierce/
// selector, a short unique text, the frame indexes from the top window,
// the offset of its centre (where click clicks) in its box, and what the
// recording redacts or turns into a click (password fields, checkboxes).
const recordTargetJS = `function () {
  const el = this;
  const esc = (s) => CSS.escape(s);
  const uniqueID = (n, root) => n.id && root.querySelectorAll('#' + esc(n.id)).length === 1;
  const cssIn = (node) => {
    const root = node.getRootNode();
    const parts = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentNode) {
      if (uniqueID(n, root)) { parts.unshift('#' + esc(n.id)); break; }
      let part = n.localName;
      const parent = n.parentNode;
      if (parent && parent.children && parent.children.length > 1) {
        part += ':nth-child(' + (Array.prototype.indexOf.call(parent.children, n) + 1) + ')';
      }
      parts.unshift(part);
      if (!parent || parent === root) break;
    }
    return parts.join(' > ');
  };
  const chain = [];
  for (let n = el; ; ) {
    chain.unshift(cssIn(n));
    const root = n.getRootNode();
    if (!(root instanceof ShadowRoot)) break;
    n = root.host;
  }
  let xpath = '';
  if (!(el.getRootNode() instanceof ShadowRoot)) {
    const steps = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentNode) {
      if (uniqueID(n, el.ownerDocument) && !/["]/.test(n.id)) { steps.unshift('/*[@id="' + n.id + '"]'); break; }
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === n.localName) i++;
      steps.unshift(n.localName + '[' + i + ']');
    }
    xpath = steps.join('/');
    if (!xpath.startsWith('/')) xpath = '/' + xpath;
  }
  let text = (el.innerText || '').trim();
  if (!text || text.length > 64 || text.includes('\n')) text = '';
  if (text) {
    let n = 0;
    for (const o of el.ownerDocument.querySelectorAll('body *')) {
      if ((o.innerText || '').includes(text) && ![...o.children].some((c) => (c.innerText || '').includes(text))) n++;
    }
    if (n !== 1) text = '';
  }
  const frame = [];
  for (let w = el.ownerDocument.defaultView; w && w !== w.parent; w = w.parent) {
    let i = 0;
    while (i < w.parent.frames.length && w.parent.frames[i] !== w) i++;
    if (i === w.parent.frames.length) break;
    frame.unshift(i);
  }
  const r = el.getBoundingClientRect();
  const top = window.top === window ? window : null;
  return {
    css: chain, xpath: xpath, pierce: cssIn(el), text: text, frame: frame,
    offsetX: Math.round(r.width / 2 * 10) / 10, offsetY: Math.round(r.height / 2 * 10) / 10,
    tag: el.localName, type: (el.type || '').toLowerCase(), checked: !!el.checked,
    width: (top || window).innerWidth, height: (top || window).innerHeight,
    scale: window.devicePixelRatio,
  };
}`

// recordValueJS reads, after a fill, the value the element ended with (a
// select's option value, whichever of label or value the agent gave) and
// whether it is checked.
const recordValueJS = `function () { return {value: String(this.value ?? this.textContent ?? ''), checked: !!this.checked}; }`
