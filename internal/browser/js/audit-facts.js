// Reads what the audits need beyond the DOM snapshot: document facts, the
// natural size of images, which text fields block pasting (by firing a
// cancelable paste event, as Lighthouse does), fields' checked state, and the layout shifts since
// the page loaded. Runs in an isolated world; resolves with JSON text.
async () => {
  const d = document;
  const dt = d.doctype;
  // Elements in a shadow host's light tree are where the flat tree
  // slots them (or nowhere), not in document order: the snapshot, which
  // these lists are matched with, follows the flat tree, so they are
  // left out.
  const inHost = (el) => {
    for (let e = el; e; e = e.parentElement) if (e.parentElement && e.parentElement.shadowRoot) return true;
    return false;
  };
  const images = [...d.querySelectorAll('img')].filter(i => !inHost(i)).map(i => [i.naturalWidth, i.naturalHeight, i.currentSrc || '']);
  // Per field, bits: 1 blocks pasting, 2 checked, 4 indeterminate (the
  // live state, which a script may have set apart from the attribute).
  const fields = [...d.querySelectorAll('input, textarea')].filter(el => !inHost(el)).map(el => {
    const ev = new ClipboardEvent('paste', {bubbles: true, cancelable: true, clipboardData: new DataTransfer()});
    el.dispatchEvent(ev);
    return (ev.defaultPrevented ? 1 : 0) | (el.checked ? 2 : 0) | (el.indeterminate ? 4 : 0);
  });
  let shifts = null;
  try {
    shifts = await new Promise(resolve => {
      const got = [];
      const po = new PerformanceObserver(list => got.push(...list.getEntries()));
      po.observe({type: 'layout-shift', buffered: true});
      setTimeout(() => { got.push(...po.takeRecords()); po.disconnect(); resolve(got.map(e => [e.startTime, e.value, e.hadRecentInput])); }, 30);
    });
  } catch (e) {}
  return JSON.stringify({
    title: d.title, hasDoctype: !!dt, doctypeName: dt ? dt.name : '', doctypePublicId: dt ? dt.publicId : '',
    doctypeSystemId: dt ? dt.systemId : '', compatMode: d.compatMode, characterSet: d.characterSet,
    headHtml: (dt ? '<!DOCTYPE ' + dt.name + '>' : '') + d.documentElement.outerHTML.slice(0, 1024),
    images, fields, shifts, width: innerWidth, height: innerHeight, userAgent: navigator.userAgent,
  });
}
