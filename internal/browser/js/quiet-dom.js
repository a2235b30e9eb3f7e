// Resolves once the document had no DOM mutation for quietMs milliseconds,
// or after capMs milliseconds at most.
(quietMs, capMs) => new Promise(resolve => {
  const done = () => { obs.disconnect(); clearTimeout(cap); resolve(); };
  let quiet = setTimeout(done, quietMs);
  const cap = setTimeout(done, capMs);
  const obs = new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(done, quietMs); });
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})
