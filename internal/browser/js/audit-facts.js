// Reads what the audits need beyond the DOM snapshot: document facts, the
// natural size of images, which text fields block pasting (by firing a
// cancelable paste event, as Lighthouse does), and the layout shifts since
// the page loaded. Runs in an isolated world; resolves with JSON text.
async () => {
  const d = document;
  const dt = d.doctype;
  const images = [...d.querySelectorAll('img')].map(i => [i.naturalWidth, i.naturalHeight, i.currentSrc || '']);
  const fields = [...d.querySelectorAll('input, textarea')].map(el => {
    const ev = new ClipboardEvent('paste', {bubbles: true, cancelable: true, clipboardData: new DataTransfer()});
    el.dispatchEvent(ev);
    return ev.defaultPrevented;
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
