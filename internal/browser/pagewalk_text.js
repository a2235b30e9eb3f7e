// Part of pagewalk.js (see there): the text a text node renders (white
// space collapsed or kept, dropped at the edges of lines, transformed),
// names joined from it, and the computed styles all of it reads, once per
// element and property. pagewalk.go puts it in place of its marker line,
// inside pagewalk.js's function, where it uses that function's helpers.

  const collapse = (s) => s.replace(/[ \t\n\r\f]+/g, ' ');
  // Names are built with BLOCK where a block element starts or ends: a
  // space inside the name, nothing at its ends. Text keeps the spaces it
  // renders with, so a name may start with one (as Chromium's does).
  const BLOCK = '\u0001';
  // SEP sets apart a child's text that does not come from its content (a
  // label, an alternative, a value): a space between it and the text
  // around it, nothing at the ends of the name, which keep their spaces.
  const SEP = '\u0002';
  // plain is text that joined leaves as it is.
  const plain = /^[^\u0001\u0002\t\n\r\f]*$/;
  const joined = (s) =>
    plain.test(s) && !s.includes('  ') ? s : s.replace(/^\u0002+|\u0002+$/g, '').replace(/[ \t\n\r\f\u0002]*\u0002[ \t\n\r\f\u0002]*/g, () => ' ').replace(/[ \t\n\r\f\u0001]+/g, (m) => (m.includes(BLOCK) ? BLOCK : ' ')).replace(/^\u0001|\u0001$/g, '').replaceAll(BLOCK, ' ');
  const clean = (s) => joined(s).trim();
  // css returns the computed style of an element, read once per element
  // and property: each read of a computed property serializes its value
  // anew, and the walk, the names and the edges of text ask for the same
  // ones again. Its fields are named as CSSStyleDeclaration's, so a
  // pseudo-element's style is used the same way.
  class Style {
    constructor(st) {
      this.st = st;
      this.display = st.display;
      this.visibility = st.visibility;
      this.ws = this.tt = this.cv = undefined;
    }
    get whiteSpace() { return (this.ws ??= this.st.whiteSpace); }
    get textTransform() { return (this.tt ??= this.st.textTransform); }
    get contentVisibility() { return (this.cv ??= this.st.contentVisibility); }
  }
  const styles = new Map();
  const css = (el) => {
    let st = styles.get(el);
    if (st === undefined) styles.set(el, (st = new Style(getComputedStyle(el))));
    return st;
  };
  const display = (el) => css(el).display;
  const isInline = (el) => {
    const d = css(el).display;
    return d.startsWith('inline') || d === 'contents';
  };
  // sibling skips comments.
  const sibling = (n, before) => {
    do n = before ? n.previousSibling : n.nextSibling; while (n && n.nodeType === 8);
    return n;
  };
  // step returns the node after n (before it, with before) in the line's
  // order: its sibling, or its inline parent's, or null at the edge of a
  // block.
  const step = (n, before) => {
    let m = sibling(n, before);
    while (!m) {
      const p = n.parentNode;
      if (!p || p.nodeType !== 1 || !isInline(p)) return null;
      n = p;
      m = sibling(n, before);
    }
    return m;
  };
  // edge tells whether a space at the end of text node n is dropped (or,
  // with before, one at its start): the line ends right after it (starts
  // right before it), a block boundary or a <br> coming first, not more
  // text or inline content; or, before it, white space that a space
  // collapses into. Inline elements are looked into; what renders nothing
  // is passed over, and so is whitespace-only text after n.
  const edge = (n, before) => {
    let m = step(n, before);
    while (m) {
      if (m.nodeType === 3) {
        const content = /[^ \t\n\r\f]/.test(m.data);
        if (before && (!content || /[ \t\n\r\f]$/.test(m.data))) return !m.parentNode || m.parentNode.nodeType !== 1 || !preserved(css(m.parentNode));
        if (content) return false;
        m = step(m, before);
        continue;
      }
      if (m.nodeType !== 1) {
        m = step(m, before);
        continue;
      }
      if (m.localName === 'br') return true;
      const d = display(m);
      if (d === 'none' || skipTags.has(m.localName)) {
        m = step(m, before);
        continue;
      }
      if (!d.startsWith('inline') && d !== 'contents') return true;
      if (replaced.has(m.localName)) return false;
      if (generates(m)) {
        // The generated text next to the line's end: a block one breaks
        // the line there, as a block element would.
        const near = before ? '::after' : '::before';
        return !!pseudoText(m, near).trim() && !getComputedStyle(m, near).display.startsWith('inline');
      }
      m = (before ? m.lastChild : m.firstChild) ?? step(m, before);
    }
    return true;
  };
  // Elements that render as one box of their own content.
  const replaced = new Set(['img', 'input', 'button', 'select', 'textarea', 'progress', 'meter', 'iframe', 'svg', 'canvas', 'embed', 'object', 'video', 'audio']);
  const preserved = (pst) => pst.whiteSpace.startsWith('pre') || pst.whiteSpace === 'break-spaces';
  // rendered returns the text a text node shows, given its parent's
  // computed style: white space collapsed unless preserved, and dropped
  // at the start and end of its line, letters transformed by
  // text-transform.
  const rendered = (n, pst) => {
    let s = n.data;
    if (!preserved(pst)) {
      s = collapse(s);
      if (s.startsWith(' ') && edge(n, true)) s = s.slice(1);
      if (s.endsWith(' ') && edge(n, false)) s = s.slice(0, -1);
    }
    return transform(s, pst);
  };
  const transform = (s, pst) => {
    switch (pst.textTransform) {
      case 'uppercase': return s.toUpperCase();
      case 'lowercase': return s.toLowerCase();
      case 'capitalize': return s.replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (m, a, b) => a + b.toUpperCase());
    }
    return s;
  };
