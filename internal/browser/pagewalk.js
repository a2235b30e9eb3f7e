// The in-page reader behind snapshots of big documents (see pagewalk.go).
// It runs in an isolated world of one frame and returns the frame's
// accessibility tree, for the nodes a snapshot can show: roles, names,
// values and properties computed from the DOM the way Chromium maps HTML
// and ARIA. Nodes are numbered by this world's own reference numbers (see
// ref), which the Go side resolves back to DOM nodes when the agent acts on
// a uid.
//
// Called as a function with `threshold`: a document with fewer elements
// than that is left to Chromium's own tree (the result is ""), unless an
// earlier call already read this document here (uids stay keyed the same
// way for the document's lifetime).
function (threshold) {
  const R = (globalThis.__devtoolsMcp ??= {
    next: 1,
    byNode: new WeakMap(),
    // byRef holds a WeakRef to each numbered node at its number; the
    // references of nodes that are gone are dropped now and then (sweep),
    // cheaper than a FinalizationRegistry entry per node.
    byRef: [],
    numbered: 0, // since the last sweep
    scripted: false,
    ref(n) {
      let id = R.byNode.get(n);
      if (!id) {
        id = R.next++;
        R.byNode.set(n, id);
        R.byRef[id] = new WeakRef(n);
        R.numbered++;
      }
      return id;
    },
    sweep(live) {
      if (R.numbered < 2 * live + 10000) return;
      R.numbered = 0;
      const refs = R.byRef;
      for (let i = 1; i < refs.length; i++) if (refs[i] !== undefined && refs[i].deref() === undefined) refs[i] = undefined;
    },
  });
  if (!R.scripted) {
    // Documents without an HTML body (SVG, XML, framesets) are Chromium's.
    if (document.body?.localName !== 'body' || document.getElementsByTagName('*').length < threshold) return '';
    R.scripted = true;
  }
  const ref = (n) => R.ref(n);

  // Each node is [ref, role, name, value, [prop, value, ...], [child refs]],
  // which the Go side turns into AX nodes: a fraction of their JSON. Empty
  // fields at the end are left out when sent (most nodes are leaves, many
  // without properties or value): the answer's size is much of its time.
  const out = [];
  const emit = (node, role, name, props, value) => {
    const ax = [ref(node), role, name || '', value ?? '', props, []];
    out.push(ax);
    return ax;
  };

  // pagewalk_text.js: how text renders and joins into names (inserted by pagewalk.go).

  // pseudoHosts are the elements some style rule gives ::before or
  // ::after content: the only ones whose pseudo-elements are looked at
  // (computing every element's would double the time). Rules of
  // stylesheets the page cannot read (other origins) are not known.
  const pseudoHosts = new Set();
  {
    const pseudo = /::?(before|after)\b/g;
    const scan = (rules) => {
      for (const r of rules) {
        const sel = r.selectorText;
        if (sel && pseudo.test(sel)) {
          const c = r.style?.content;
          if (c && c !== 'none' && c !== 'normal') {
            for (const part of sel.split(',')) {
              if (!/::?(before|after)\b/.test(part)) continue;
              try {
                for (const e of document.querySelectorAll(part.replace(pseudo, '').trim() || '*')) pseudoHosts.add(e);
              } catch {}
            }
          }
        }
        pseudo.lastIndex = 0;
        if (r.cssRules) scan(r.cssRules);
      }
    };
    for (const sheet of document.styleSheets) {
      try {
        scan(sheet.cssRules);
      } catch {}
    }
  }
  // pseudoText returns the text of el's ::before or ::after, '' when it
  // has none (or content that is not plain strings); with apart, for a
  // name, set apart by spaces when it is a block.
  const pseudoText = (el, which, apart) => {
    if (!pseudoHosts.has(el)) return '';
    const st = getComputedStyle(el, which);
    if (st.display === 'none' || st.visibility !== 'visible') return '';
    const m = /^"((?:[^"\\]|\\.)*)"$/.exec(st.content);
    if (!m) return '';
    const s = transform(collapse(m[1].replace(/\\(.)/g, '$1')), st);
    return !apart || st.display.startsWith('inline') || !s ? s : BLOCK + s + BLOCK;
  };
  // generates tells whether el shows text of its own in a ::before or
  // ::after: a line does not end next to it.
  const generates = (el) => pseudoHosts.has(el) && !!(pseudoText(el, '::before').trim() || pseudoText(el, '::after').trim());
  // addPseudo adds the text of el's ::before or ::after below parent.
  const addPseudo = (el, which, parent) => {
    const s = pseudoText(el, which);
    if (!s.trim()) return;
    R.pseudo ??= new WeakMap();
    let p = R.pseudo.get(el);
    if (!p) R.pseudo.set(el, (p = { '::before': {}, '::after': {} }));
    parent[5].push(emit(p[which], 'StaticText', s, [])[0]);
  };

  // skipped tells whether el's content is not rendered by
  // content-visibility (hidden, or auto and off-screen): Chromium leaves
  // it out of its tree until it is scrolled near the viewport.
  const skipped = (el, st) => {
    const cv = st.contentVisibility;
    if (cv === 'hidden') return true;
    if (cv !== 'auto') return false;
    const c = el.firstElementChild;
    return !!c && !c.checkVisibility({ contentVisibilityAuto: true });
  };

  // Children in the flat tree: a shadow host shows its shadow root, a slot
  // its assigned nodes (or its own content when nothing is assigned).
  const kids = (n) => {
    if (n.shadowRoot) return n.shadowRoot.childNodes;
    if (n.localName === 'slot') {
      const a = n.assignedNodes();
      if (a.length) return a;
    }
    return n.localName === 'template' ? [] : n.childNodes;
  };

  const skipTags = new Set(['script', 'style', 'head', 'template', 'noscript', 'title', 'meta', 'link', 'datalist']);
  // hidden tells whether el and its subtree are out of the tree.
  const hidden = (el, st) =>
    skipTags.has(el.localName) || st.display === 'none' || el.getAttribute('aria-hidden') === 'true' || el.inert;

  // pagewalk_roles.js: roles and widget states (inserted by pagewalk.go).
  const none = [];
  const byIds = (el, attr) => {
    const v = el.getAttribute(attr);
    return v ? v.trim().split(/\s+/).map((id) => id && el.getRootNode().getElementById?.(id)).filter(Boolean) : none;
  };

  // text returns the text a node contributes to the name of an ancestor
  // (or its own, from its content); pst is its parent's computed style.
  const text = (n, seen, pst) => {
    if (n.nodeType === 3) return rendered(n, pst);
    if (n.nodeType !== 1 || seen.has(n)) return '';
    seen.add(n);
    const el = n;
    const st = css(el);
    if (hidden(el, st) || st.visibility === 'hidden') return '';
    // Text that does not come from content (a label, an alternative, a
    // control's value) is set apart by spaces, as Chromium joins it.
    const apart = (s) => (s ? SEP + s + SEP : '');
    const label = el.getAttribute('aria-label');
    if (label && label.trim()) return apart(label);
    if (el.localName === 'img') return apart(el.alt || '');
    if (el.localName === 'svg' && !svgContent(el)) return SEP + name(el, 'image') + SEP;
    if (el.localName === 'br') return '\n';
    if (el.localName === 'input' || el.localName === 'textarea') {
      return el.type === 'checkbox' || el.type === 'radio' ? '' : el.type === 'password' ? '' : apart(el.value);
    }
    if (el.localName === 'select') return apart(el.selectedOptions[0]?.textContent ?? '');
    if (containers.has(el.getAttribute('role'))) return '';
    let s = pseudoText(el, '::before', true);
    for (let ks = kids(el), i = 0; i < ks.length; i++) s += text(ks[i], seen, st);
    s += pseudoText(el, '::after', true);
    return st.display.startsWith('inline') || st.display === 'contents' ? s : BLOCK + s + BLOCK;
  };

  // referenced returns the text of an element that aria-labelledby or
  // aria-describedby points to: all of its text when it is hidden itself
  // (a hidden label still names), as Chromium reads it.
  const referenced = (t) => {
    const st = css(t);
    return (hidden(t, st) || st.visibility === 'hidden') && !skipTags.has(t.localName) ? collapse(t.textContent) : text(t, new Set());
  };

  // labelsOf returns the text of the <label>s of a form control. The
  // labels of each document or shadow root are indexed once: el.labels
  // scans the whole tree for every control.
  const labelIndex = new Map();
  const labelsOf = (el) => {
    const root = el.getRootNode();
    let index = labelIndex.get(root);
    if (!index) {
      index = new Map();
      for (const l of root.querySelectorAll?.('label') ?? []) {
        const c = l.control;
        if (c) index.set(c, [...(index.get(c) ?? []), l]);
      }
      labelIndex.set(root, index);
    }
    let s = '';
    for (const l of index.get(el) ?? []) s += ' ' + text(l, new Set([el]));
    return clean(s);
  };

  // name returns the accessible name of el with the given role (the subset
  // of the accessible name computation that HTML pages use).
  function name(el, role) {
    const ids = byIds(el, 'aria-labelledby');
    if (ids.length) return clean(ids.map(referenced).join(' '));
    const label = el.getAttribute('aria-label');
    if (label && label.trim()) return clean(label);
    const tag = el.localName;
    if (tag === 'input') {
      const t = el.type;
      if (t === 'button' || t === 'submit' || t === 'reset') {
        return el.value || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '') || labelsOf(el);
      }
      if (t === 'image') return el.alt || el.value || 'Submit';
      return labelsOf(el) || clean(el.title || '') || clean(el.placeholder || '');
    }
    if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output') {
      return labelsOf(el) || clean(el.title || '') || clean(el.placeholder || '');
    }
    if (tag === 'img' || tag === 'area') return clean(el.alt || '') || clean(el.title || '');
    if (tag === 'fieldset') {
      const lg = [...el.children].find((c) => c.localName === 'legend');
      if (lg) return clean(text(lg, new Set()));
    }
    if (tag === 'table') {
      const cap = el.caption;
      if (cap) return clean(text(cap, new Set()));
    }
    if (tag === 'figure') {
      const fc = [...el.children].find((c) => c.localName === 'figcaption');
      if (fc) return clean(text(fc, new Set()));
    }
    if (tag === 'iframe') return clean(el.title || '');
    if (tag === 'svg') return svgTitle(el);
    if (fromContent.has(role)) {
      let s = '';
      const seen = new Set([el]);
      const st = css(el);
      s += pseudoText(el, '::before', true);
      for (let ks = kids(el), i = 0; i < ks.length; i++) s += text(ks[i], seen, st);
      s += pseudoText(el, '::after', true);
      s = joined(s);
      if (s.trim()) return s;
    }
    return clean(el.title || '');
  }

  // svgTitle returns the text of an <svg>'s <title> child.
  const svgTitle = (el) => clean([...el.children].find((c) => c.localName === 'title')?.textContent ?? '');

  let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  if (focused === document.body || focused === document.documentElement) focused = null; // the document itself
  // Whether some element is aria-disabled: what it holds that can take
  // the focus is disabled too (Chromium's reading).
  const ariaDisabled = !!document.querySelector('[aria-disabled=true]');
  // Outside an open modal dialog, the page is inert.
  const modal = document.querySelector('dialog:modal');
  // Live regions by role, when aria-live does not say.
  const liveOf = { status: 'polite', alert: 'assertive', log: 'polite', timer: 'off', marquee: 'off' };
  // Elements that can be :disabled, by themselves or by a fieldset.
  const formish = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);
  // natural tells whether an element is focusable without a tabindex.
  const natural = (el) => {
    switch (el.localName) {
      case 'a': case 'area': return el.hasAttribute('href');
      case 'button': case 'select': case 'textarea': case 'iframe': return true;
      case 'input': return el.type !== 'hidden';
      case 'summary': return el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el;
      case 'audio': case 'video': return el.hasAttribute('controls');
    }
    return false;
  };
  // Form controls and embedded content: Chromium drops the spaces next to
  // them.
  const controls = new Set(['button', 'input', 'select', 'textarea', 'progress', 'meter', 'iframe', 'svg', 'canvas', 'embed', 'object', 'video', 'audio']);
  // spaced tells whether the inline content at the edge of n that touches
  // a whitespace text (its last leaf when before it, its first when
  // after) is not a form control.
  const spaced = (n, before) => {
    let m = step(n, before);
    while (m) {
      if (m.nodeType === 3) {
        if (/[^ \t\n\r\f]/.test(m.data)) return true;
        m = step(m, before);
        continue;
      }
      if (m.nodeType !== 1 || controls.has(m.localName) || !isInline(m)) return false;
      if (generates(m)) return true;
      const c = before ? m.lastChild : m.firstChild;
      if (!c) return true;
      m = c;
    }
    return false;
  };
  // quiet is set inside the <label> of a checkbox or radio: Chromium
  // leaves its text out, it is the control's name.
  let quiet = false;
  // walk adds the nodes of n (an element or a text) below parent; pst is
  // the computed style of n's parent (text inherits it). Documents nested
  // deeper than maxDepth elements are left to Chromium, before the
  // recursion could exhaust the stack.
  const maxDepth = 1000;
  let depth = 0;
  const walk = (n, parent, pst) => {
    if (++depth > maxDepth) throw new Error('the document is nested deeper than ' + maxDepth + ' elements');
    try {
      visit(n, parent, pst);
    } finally {
      depth--;
    }
  };
  const isAria = (a) => a.startsWith('aria-');
  const noAttr = () => null;
  const visit = (n, parent, pst) => {
    if (n.nodeType === 3) {
      if (pst.visibility !== 'visible' || quiet) return;
      const s = rendered(n, pst);
      if (s === '') return;
      // Chromium drops a space next to a form control.
      if (s === ' ' && !preserved(pst) && !(spaced(n, true) && spaced(n, false))) return;
      parent[5].push(emit(n, 'StaticText', s, [])[0]);
      return;
    }
    if (n.nodeType !== 1) return;
    const el = n;
    const st = css(el);
    // Most elements have no aria-* attribute: their many reads below are
    // skipped.
    const aria = el.hasAttributes() && el.getAttributeNames().some(isAria);
    const at = aria ? (a) => el.getAttribute(a) : noAttr;
    if (hidden(el, st) || (modal && !el.contains(modal) && !modal.contains(el))) return;
    const visible = st.visibility !== 'hidden' && st.visibility !== 'collapse';
    let role = visible ? roleOf(el) : '';
    const props = [];
    const tag = el.localName;
    const tabbable = el.hasAttribute('tabindex') || natural(el);
    // aria-disabled leaves an element focusable; :disabled does not.
    const native = formish.has(tag) && el.matches(':disabled');
    const disabled = native || at('aria-disabled') === 'true' || (ariaDisabled && tabbable && !!el.parentElement?.closest('[aria-disabled=true]'));
    const editable = el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable);
    const focusable = visible && !native && (tabbable || editable || el === focused || (tag === 'option' && !!el.parentElement?.closest('select')));
    if (focusable && (role === '' || role === 'none')) role = 'generic';
    const live = at('aria-live') || liveOf[role];
    const labelled = at('aria-label') !== null || at('aria-labelledby') !== null || el.hasAttribute('title');
    // An invisible element is out of the tree whatever it says of itself
    // (its visible descendants are not).
    if (role === '' && visible && (live || labelled || editable)) role = 'generic';
    const toggleLabel = tag === 'label' && (el.control?.type === 'checkbox' || el.control?.type === 'radio');
    if (toggleLabel) role = '';
    if (role === '' || role === 'none') {
      const was = quiet;
      quiet ||= toggleLabel;
      if (!skipped(el, st)) {
        addPseudo(el, '::before', parent);
        for (let ks = kids(el), i = 0; i < ks.length; i++) walk(ks[i], parent, st);
        addPseudo(el, '::after', parent);
      }
      quiet = was;
      return;
    }

    if (focusable) props.push('focusable', true);
    if (el === focused && focusable) props.push('focused', true);
    if (disabled) props.push('disabled', true);
    if (editable) props.push('editable', 'richtext');
    if (live) {
      props.push('live', live);
      props.push('relevant', at('aria-relevant') || 'additions text');
      const atomic = at('aria-atomic');
      if (atomic ? atomic === 'true' : role === 'status' || role === 'alert') props.push('atomic', true);
    }
    if (at('aria-busy') === 'true') props.push('busy', true);
    if (at('aria-modal') === 'true' || (el.localName === 'dialog' && el.matches(':modal'))) props.push('modal', true);
    const rd = at('aria-roledescription');
    if (rd) props.push('roledescription', rd);
    // Chromium reports an access key as the shortcut it is on Linux.
    const ks = at('aria-keyshortcuts') || (el.accessKey && 'Alt+' + el.accessKey);
    if (ks) props.push('keyshortcuts', ks);
    let value;
    switch (role) {
      case 'heading': {
        // Chromium reads aria-level as at least 1 (0, -1 or a word are 1)
        // and ignores it above 9, for the tag's level or 2.
        const attr = at('aria-level');
        let lv = attr ? Math.max(parseInt(attr, 10) || 0, 1) : 10;
        if (lv > 9) lv = /^h[1-6]$/.test(tag) ? +tag.slice(1) : 2;
        props.push('level', lv);
        break;
      }
      case 'link': case 'doc-backlink': case 'doc-biblioref': case 'doc-glossref': case 'doc-noteref':
        // An SVG link's href is an animated string, relative.
        const href = el.href;
        if (href) props.push('url', typeof href === 'string' ? href : new URL(href.baseVal, el.baseURI).href);
        break;
      case 'image':
        if (el.src) props.push('url', el.src);
        break;
      case 'textbox': case 'searchbox': {
        const ml = at('aria-multiline');
        props.push('editable', 'plaintext');
        props.push('multiline', tag !== 'input' && (ml === 'true' || (ml !== 'false' && tag === 'textarea')));
        props.push('readonly', !!el.readOnly || at('aria-readonly') === 'true');
        props.push('required', !!el.required || at('aria-required') === 'true');
        if (tag === 'input' || tag === 'textarea') value = el.type === 'password' ? '•'.repeat(el.value.length) : el.value;
        break;
      }
      case 'spinbutton':
        if (tag === 'input') {
          props.push('editable', 'plaintext');
          props.push('required', !!el.required);
          props.push('valuemin', el.min === '' ? 0 : Number(el.min));
          props.push('valuemax', el.max === '' ? 0 : Number(el.max));
          props.push('valuetext', el.value);
          if (el.value !== '') value = Number(el.value);
          if (at('aria-valuenow') !== null) value = ariaNumber(el, 'aria-valuenow');
        } else value = ariaRange(el, role, props);
        break;
      case 'slider':
        if (tag === 'input') {
          props.push('orientation', 'horizontal');
          props.push('valuemin', el.min === '' ? 0 : Number(el.min));
          props.push('valuemax', el.max === '' ? 100 : Number(el.max));
          props.push('valuetext', el.value);
          value = Number(el.value);
        } else value = ariaRange(el, role, props);
        break;
      case 'scrollbar': case 'meter':
        if (tag !== 'meter') value = ariaRange(el, role, props);
        break;
      case 'separator':
        if (focusable) value = ariaRange(el, role, props);
        break;
      case 'checkbox': case 'radio': case 'switch': case 'menuitemcheckbox': case 'menuitemradio': {
        const c = checkedOf(el, role);
        if (c) props.push('checked', c);
        break;
      }
      case 'button':
        if (tag === 'input' && el.type === 'file') {
          const f = el.files;
          value = !f || !f.length ? 'No file chosen' : f.length === 1 ? f[0].name : f.length + ' files';
        }
        break;
      case 'progressbar':
        if (tag === 'progress') {
          if (el.position >= 0) value = el.value;
          props.push('valuemin', 0, 'valuemax', el.max, 'valuetext', '');
        } else value = ariaRange(el, role, props);
        break;
      case 'combobox':
        if (tag === 'select') {
          props.push('hasPopup', 'menu');
          props.push('expanded', false);
          value = el.selectedOptions[0] ? clean(el.selectedOptions[0].textContent) : '';
        } else if (tag !== 'input') {
          value = clean(el.textContent);
        }
        break;
      case 'treeitem': {
        let level = parseInt(at('aria-level'), 10);
        if (!(level > 0)) {
          level = 1;
          for (let a = el.parentElement?.closest('[role=treeitem]'); a; a = a.parentElement?.closest('[role=treeitem]')) level++;
        }
        props.push('level', level);
        break;
      }
      case 'option':
        props.push('selected', tag === 'option' ? el.selected : at('aria-selected') === 'true');
        break;
    }
    if (role === 'option' || role === 'treeitem') {
      const c = checkedOf(el, role);
      if (c) props.push('checked', c);
    }
    // A text field says how it completes what is typed; input with a
    // datalist completes from its list.
    if (role === 'textbox' || role === 'searchbox' || (role === 'combobox' && tag === 'input')) {
      const ac = at('aria-autocomplete');
      if (ac && ac !== 'none') props.push('autocomplete', ac);
      else if (tag === 'input' && el.list) props.push('autocomplete', 'list');
    }
    if ((at('aria-required') === 'true' || (tag === 'select' && role === 'listbox' && el.required)) && requirable.has(role)) props.push('required', true);
    for (const [attr, prop] of [['aria-errormessage', 'errormessage'], ['aria-details', 'details']]) {
      if (at(attr) === null) continue;
      const ids = byIds(el, attr);
      if (ids.length) props.push(prop, ids.map((t) => t.id).join(' '));
    }
    if (readonlyOf(el, role)) props.push('readonly', true);
    const expanded = at('aria-expanded');
    if (expanded === 'true' || expanded === 'false') props.push('expanded', expanded === 'true');
    const pressed = at('aria-pressed');
    if (pressed === 'true' || pressed === 'mixed' || pressed === 'false') props.push('pressed', pressed);
    // A combobox other than a <select> pops up a listbox unless it says
    // otherwise.
    const popup = at('aria-haspopup');
    if (popup && popup !== 'false') props.push('hasPopup', popup === 'true' ? 'menu' : popup);
    else if (role === 'combobox' && tag !== 'select') props.push('hasPopup', 'listbox');
    if (at('aria-invalid') && at('aria-invalid') !== 'false') props.push('invalid', at('aria-invalid'));
    const sel = at('aria-selected');
    if ((sel === 'true' || sel === 'false') && role !== 'option') props.push('selected', sel === 'true');
    else if (sel === null && (role === 'treeitem' || role === 'tab') && followsFocus(el, role)) props.push('selected', el === focused);
    const orientation = at('aria-orientation') || orientationOf[role];
    if (orientation && !(role === 'slider' && tag === 'input')) props.push('orientation', orientation);
    if (multiselectable.has(role) && (el.multiple || at('aria-multiselectable') === 'true')) props.push('multiselectable', true);
    if (role === 'DisclosureTriangle' && el.parentElement?.localName === 'details') props.push('expanded', el.parentElement.open);
    if (editable) value = clean(el.textContent);

    const nm = role === 'LineBreak' ? '\n' : name(el, role);
    const described = aria ? byIds(el, 'aria-describedby') : none;
    const title = tag === 'svg' ? svgTitle(el) : clean(el.title || '');
    // A title is the description unless it gave the name.
    const authored = !!at('aria-label')?.trim() || (aria ? byIds(el, 'aria-labelledby') : none).length > 0;
    const desc = described.length ? clean(described.map(referenced).join(' ')) : title && (title !== nm || authored) ? title : '';
    if (desc) props.push('description', desc);
    const ax = emit(el, role, nm, props, value);
    parent[5].push(ax[0]);
    if (tag === 'meter') {
      // Chromium shows the parts of the meter's user-agent shadow tree
      // below it: it is never a leaf.
      R.parts ??= new WeakMap();
      if (!R.parts.has(el)) R.parts.set(el, {});
      ax[5].push(emit(R.parts.get(el), 'generic', '', [])[0]);
      return;
    }
    if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || role === 'slider' || role === 'combobox' && tag === 'input' || tag === 'img' || tag === 'svg') return;
    if (tag === 'select') {
      if (role === 'combobox') {
        const popup = emit(el.options, 'MenuListPopup', '', []);
        ax[5].push(popup[0]);
        for (const c of el.children) walk(c, popup, st);
      } else {
        for (const c of el.children) walk(c, ax, st);
      }
      return;
    }
    if (tag === 'option') return;
    if (tag === 'details' && !el.open) {
      const summary = el.querySelector(':scope > summary');
      if (summary) walk(summary, ax, st);
      return;
    }
    if (skipped(el, st)) return;
    addPseudo(el, '::before', ax);
    for (let ks = kids(el), i = 0; i < ks.length; i++) walk(ks[i], ax, st);
    addPseudo(el, '::after', ax);
  };

  const root = emit(document, 'RootWebArea', clean(document.title), ['focusable', true, 'url', document.URL]);
  if (document.body) walk(document.body, root, css(document.documentElement));
  R.sweep(out.length);
  for (const ax of out) {
    if (ax[5].length) continue;
    ax.length = 5;
    if (ax[4].length) continue;
    ax.length = ax[3] === '' ? (ax[2] === '' ? 2 : 3) : 4;
  }
  return JSON.stringify(out);
}
