// Finds the option named value among the shown options of a listbox, or
// of the popup a combobox controls or owns (aria-controls, aria-owns, a
// listbox inside it), waiting up to wait ms for the page to show it; names
// match as they are, then with spaces collapsed and case ignored. Returns
// the option element, or a string: why there is none, naming the options.
async function(value, wait) {
  const root = this.getRootNode();
  const byIds = (attr) => (this.getAttribute(attr) || '').split(/\s+/).filter(Boolean)
    .map((id) => (root.getElementById ? root.getElementById(id) : document.getElementById(id))).filter(Boolean);
  const role = (el) => (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const shown = (el) => (el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : el.getClientRects().length > 0);
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const name = (o) => norm(o.getAttribute('aria-label') || o.textContent || '');
  const options = () => {
    const boxes = role(this) === 'listbox' ? [this] : [...byIds('aria-controls'), ...byIds('aria-owns'), ...this.querySelectorAll('[role=listbox]')];
    const out = [];
    for (const b of boxes) {
      for (const o of role(b) === 'option' ? [b] : b.querySelectorAll('[role=option]')) {
        if (shown(o) && !out.includes(o)) out.push(o);
      }
    }
    return out;
  };
  const want = norm(value), lower = want.toLowerCase();
  const find = (list) => list.find((o) => name(o) === want) || list.find((o) => name(o).toLowerCase() === lower);
  const deadline = performance.now() + wait;
  for (;;) {
    const list = options();
    const o = find(list);
    if (o) return o;
    const left = deadline - performance.now();
    if (left <= 0) {
      if (!list.length) return 'no options are shown';
      return 'no option "' + value + '"; the options are: ' + list.slice(0, 50).map((o) => JSON.stringify(name(o))).join(', ') + (list.length > 50 ? ' and ' + (list.length - 50) + ' more' : '');
    }
    // The next change of the document, or the end of the wait.
    await new Promise((resolve) => {
      const mo = new MutationObserver(() => { mo.disconnect(); clearTimeout(t); resolve(); });
      const t = setTimeout(() => { mo.disconnect(); resolve(); }, left);
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }
}
