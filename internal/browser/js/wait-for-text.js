// Resolves with the first of texts that shows on the page
// (visible text, title, or accessible labels), watching DOM mutations until
// ms milliseconds passed; then it resolves with null.
(texts, ms) => new Promise(resolve => {
  const labels = () => Array.from(document.querySelectorAll('[aria-label],[alt],[title],[placeholder]'),
    e => ['aria-label', 'alt', 'title', 'placeholder'].map(a => e.getAttribute(a) || '').join('\n')).join('\n');
  const find = () => {
    const hay = (document.body ? document.body.innerText : '') + '\n' + document.title;
    let t = texts.find(t => hay.includes(t));
    if (t === undefined) { const l = labels(); t = texts.find(t => l.includes(t)); }
    return t === undefined ? null : t;
  };
  const first = find();
  if (first !== null) return resolve(first);
  let queued = false;
  const obs = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      const t = find();
      if (t !== null) { obs.disconnect(); clearTimeout(timer); resolve(t); }
    }, 0);
  });
  obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  const timer = setTimeout(() => { obs.disconnect(); resolve(null); }, ms);
})
