// Keeps the speculation rules of a document from taking effect, on an
// attached Chrome under a URL policy (see speculationguard.go). It runs in
// an isolated world of its own at the start of every document, before the
// page's scripts, and removes every <script type=speculationrules> from the
// document: those already there, and each one the parser or a script adds,
// or turns into rules by changing its type or text. Chrome sends a
// document's rules to the browser process in a microtask queued when the
// script is prepared (or later, at the next style update); the mutation
// observer's microtask is queued before that when the parser inserts the
// script, so the rules are gone before they are sent. Rules in shadow
// trees, which no observer here sees, are removed when Chrome reports them.
// The function runs as it is added, with no arguments.
() => {
  const isRules = n => n.nodeType === 1 && n.localName === 'script' &&
      String(n.getAttribute('type') || '').trim().toLowerCase() === 'speculationrules';
  const drop = n => {
    if (isRules(n)) {
      n.remove();
    } else if (n.nodeType === 1 || n.nodeType === 9 || n.nodeType === 11) {
      for (const s of n.querySelectorAll('script')) {
        if (isRules(s)) s.remove();
      }
    }
  };
  drop(document);
  new MutationObserver(records => {
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) drop(n);
        if (isRules(r.target)) r.target.remove();
      } else if (r.type === 'attributes') {
        drop(r.target);
      } else if (r.target.parentNode && isRules(r.target.parentNode)) {
        r.target.parentNode.remove();
      }
    }
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['type']});
}
