// record.mjs writes axe-core's verdict on every page of this directory
// beside it (page.html -> page.axe.json): for each accessibility rule of
// Lighthouse's category, the nodes axe-core passes, fails (violations) and
// leaves for review (incomplete), each with its target selector, its
// snippet, its node path (Lighthouse's "index,NAME" path, which
// lighthouse_audit reports too; frames joined with "/") and its selector
// as Lighthouse's report names it. TestAxeCorpus compares
// lighthouse_audit's answers with these files; it needs neither Node nor
// axe-core.
//
// Run it by hand after changing a page (Node 20 or later):
//
//	npm install --prefix /tmp/axe axe-core@4.12.1   # the version Lighthouse 13 bundles
//	node --experimental-websocket e2e/testdata/axe/record.mjs /tmp/axe/node_modules/axe-core/axe.min.js [page.html ...]
//
// Chromium is /usr/bin/chromium unless $CHROME says otherwise. Pages are
// served on 127.0.0.1 and opened at 1350x940, lighthouse_audit's desktop
// viewport; axe-core is injected into every frame before the page's own
// scripts run and run from the top document, as Lighthouse runs it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

// rules are the axe-core rules behind Lighthouse 13's accessibility audits.
const rules = [
  'accesskeys', 'aria-allowed-attr', 'aria-allowed-role', 'aria-command-name', 'aria-conditional-attr', 'aria-deprecated-role',
  'aria-dialog-name', 'aria-hidden-body', 'aria-hidden-focus', 'aria-input-field-name', 'aria-meter-name', 'aria-progressbar-name',
  'aria-prohibited-attr', 'aria-required-attr', 'aria-required-children', 'aria-required-parent', 'aria-roles', 'aria-text',
  'aria-toggle-field-name', 'aria-tooltip-name', 'aria-treeitem-name', 'aria-valid-attr-value', 'aria-valid-attr', 'button-name',
  'bypass', 'color-contrast', 'definition-list', 'dlitem', 'document-title', 'duplicate-id-aria', 'empty-heading',
  'form-field-multiple-labels', 'frame-title', 'heading-order', 'html-has-lang', 'html-lang-valid', 'html-xml-lang-mismatch',
  'image-alt', 'image-redundant-alt', 'input-button-name', 'input-image-alt', 'label', 'label-content-name-mismatch',
  'landmark-one-main', 'link-in-text-block', 'link-name', 'list', 'listitem', 'meta-refresh', 'meta-viewport', 'object-alt',
  'presentation-role-conflict', 'select-name', 'skip-link', 'table-duplicate-name', 'table-fake-caption', 'target-size',
  'td-has-header', 'td-headers-attr', 'th-has-data-cells', 'valid-lang', 'video-caption', 'tabindex', 'autocomplete-valid',
  'svg-img-alt', 'identical-links-same-purpose',
];

// inPage runs in the top document once it has loaded: it runs axe-core
// and describes every node of its results.
const inPage = `async (rules) => {
  // path numbers each node from the document down by its earlier
  // siblings, text that is only white space not counted (Lighthouse's
  // node path); a frame's document follows its frame element's path.
  const path = (el) => {
    // An open shadow root counts as its host's child "a,#document-fragment".
    const parts = [];
    const up = (n) => (n.nodeType === 11 ? n.host : n.parentNode);
    for (let n = el; n && up(n); n = up(n)) {
      if (n.nodeType === 11) {
        parts.unshift('a,' + n.nodeName);
        continue;
      }
      let idx = 0;
      for (let s = n.previousSibling; s; s = s.previousSibling) {
        if (s.nodeType !== 3 || s.nodeValue.trim() !== '') idx++;
      }
      parts.unshift(idx + ',' + n.nodeName);
    }
    const owner = el.ownerDocument.defaultView.frameElement;
    return (owner ? path(owner) + '/' : '') + parts.join(',');
  };
  // selector names a node as Lighthouse's report does: up to four
  // elements up from it, each its tag with its id or else its first
  // class, stopping below the root element and at a shadow root.
  const selector = (el) => {
    const parts = [];
    for (let e = el; parts.length < 4; ) {
      let part = e.tagName.toLowerCase();
      if (e.id) part += '#' + e.id;
      else if (e.classList.length) part += '.' + e.classList[0];
      parts.unshift(part);
      e = e.parentElement;
      if (!e || e.tagName === 'HTML') break;
    }
    return parts.join(' > ');
  };
  // find resolves a target in a frame's document (axe-core gives no
  // element reference there): one selector per frame, an array of
  // selectors for a path through shadow roots.
  const find = (target) => {
    let doc = document, el = null;
    for (const sel of target) {
      let root = doc;
      for (const part of [sel].flat()) {
        el = root && root.querySelector(part);
        if (!el) return null;
        root = el.shadowRoot;
      }
      doc = el.contentDocument;
    }
    return el;
  };
  const res = await axe.run(document, { runOnly: { type: 'rule', values: rules }, iframes: true, resultTypes: ['violations', 'passes', 'incomplete', 'inapplicable'], elementRef: true });
  const out = {};
  for (const [kind, list] of [['fail', res.violations], ['pass', res.passes], ['review', res.incomplete]]) {
    for (const r of list) {
      for (const n of r.nodes) {
        const el = n.element || find(n.target);
        (out[r.id] ??= []).push({ path: el ? path(el) : '', selector: el ? selector(el) : '', target: n.target.flat().join(' '), html: n.html, verdict: kind });
      }
    }
  }
  for (const r of res.inapplicable) out[r.id] ??= [];
  return JSON.stringify({ axe: axe.version, rules: out });
}`;

const here = dirname(fileURLToPath(import.meta.url));
const [axePath, ...only] = process.argv.slice(2);
if (!axePath) {
  console.error('usage: node --experimental-websocket record.mjs path/to/axe.min.js [page.html ...]');
  process.exit(2);
}
const axeSource = readFileSync(axePath, 'utf8');
const pages = only.length ? only.map((p) => basename(p)) : readdirSync(here).filter((f) => extname(f) === '.html').sort();

const server = createServer((req, res) => {
  const file = join(here, basename(new URL(req.url, 'http://x').pathname));
  if (!existsSync(file) || !file.endsWith('.html')) {
    res.writeHead(404).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = 'http://127.0.0.1:' + server.address().port;

const profile = mkdtempSync(join(tmpdir(), 'axe-record-'));
const chrome = spawn(process.env.CHROME || '/usr/bin/chromium', [
  '--headless', '--no-sandbox', '--remote-debugging-port=0', '--user-data-dir=' + profile, '--no-first-run', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe'] });
const wsURL = await new Promise((ok, fail) => {
  let err = '';
  chrome.stderr.on('data', (d) => {
    err += d;
    const m = /DevTools listening on (ws:\S+)/.exec(err);
    if (m) ok(m[1]);
  });
  chrome.on('exit', () => fail(new Error('chromium exited:\n' + err)));
});

const ws = new WebSocket(wsURL);
await new Promise((ok) => ws.addEventListener('open', ok, { once: true }));
let nextID = 1;
const waiting = new Map();
const listeners = [];
ws.addEventListener('message', (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.id && waiting.has(msg.id)) {
    const { ok, fail } = waiting.get(msg.id);
    waiting.delete(msg.id);
    msg.error ? fail(new Error(JSON.stringify(msg.error))) : ok(msg.result);
    return;
  }
  for (const l of listeners.slice()) l(msg);
});
const send = (method, params = {}, sessionId) =>
  new Promise((ok, fail) => {
    const id = nextID++;
    waiting.set(id, { ok, fail });
    ws.send(JSON.stringify({ id, method, params, sessionId }));
  });
const once = (method, sessionId) =>
  new Promise((ok) => {
    const l = (msg) => {
      if (msg.method === method && msg.sessionId === sessionId) {
        listeners.splice(listeners.indexOf(l), 1);
        ok(msg.params);
      }
    };
    listeners.push(l);
  });

for (const page of pages) {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Page.enable', {}, sessionId);
  await send('Emulation.setDeviceMetricsOverride', { width: 1350, height: 940, deviceScaleFactor: 1, mobile: false }, sessionId);
  await send('Page.addScriptToEvaluateOnNewDocument', { source: axeSource }, sessionId);
  const loaded = once('Page.loadEventFired', sessionId);
  await send('Page.navigate', { url: origin + '/' + page }, sessionId);
  await loaded;
  const r = await send('Runtime.evaluate', { expression: `(${inPage})(${JSON.stringify(rules)})`, awaitPromise: true, returnByValue: true }, sessionId);
  if (r.exceptionDetails) throw new Error(page + ': ' + JSON.stringify(r.exceptionDetails));
  const got = JSON.parse(r.result.value);
  const out = join(here, page.replace(/\.html$/, '.axe.json'));
  writeFileSync(out, JSON.stringify(got, null, 1) + '\n');
  const fails = Object.values(got.rules).flat().filter((n) => n.verdict === 'fail').length;
  console.log(`${page}: ${fails} failing nodes -> ${basename(out)}`);
  await send('Target.closeTarget', { targetId });
}
ws.close();
const exited = new Promise((ok) => chrome.once('exit', ok));
chrome.kill();
await exited;
server.close();
rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
