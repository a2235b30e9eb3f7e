// record-lh.mjs writes the reference's Lighthouse verdicts on the pages of
// this directory beside them (verdicts.json): for each SEO and
// best-practices audit, per page, "pass", "fail", "na" (not applicable,
// informative or manual: no score) or "error", and the audit's score. TestLighthouseCorpus
// compares lighthouse_audit's report with it; it needs neither Node nor
// the reference.
//
// Run it by hand after changing a page (Node 20 or later):
//
//	PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix /tmp/ref chrome-devtools-mcp@1.11.0
//	node e2e/testdata/lighthouse/record-lh.mjs [/tmp/ref/node_modules/chrome-devtools-mcp]
//
// Pages are served on 127.0.0.1 as routes.json says (statuses, headers,
// robots.txt); the reference drives /usr/bin/chromium (or $CHROME) over
// stdio, navigates to each page and runs lighthouse_audit in navigation
// mode on the desktop, writing report.json into a temporary directory.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ref = process.argv[2] || '/tmp/ref/node_modules/chrome-devtools-mcp';
const { routes, pages } = JSON.parse(readFileSync(join(here, 'routes.json'), 'utf8'));

const server = createServer((req, res) => {
  let path = new URL(req.url, 'http://x').pathname;
  const local = (req.headers.host || '').startsWith('localhost');
  if (local && path === '/robots.txt') path = '/robots-bad.txt';
  const r = routes[path];
  if (!r) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(r.status || 200, { 'content-type': r.type || 'text/html; charset=utf-8', ...(r.headers || {}) });
  let body = readFileSync(join(here, r.file));
  if (r.pad) body = Buffer.concat([body, Buffer.from('//' + 'x'.repeat(r.pad) + '\n')]);
  res.end(r.file.endsWith('.html')
    ? body.toString('utf8').replaceAll('__OTHER_ORIGIN__', local ? origin : localOrigin).replaceAll('__ORIGIN__', local ? localOrigin : origin)
    : body);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = 'http://127.0.0.1:' + server.address().port;
const localOrigin = 'http://localhost:' + server.address().port;
// pageURL opens "localhost:/path" pages at the other origin.
const pageURL = (page) => (page.startsWith('localhost:') ? localOrigin + page.slice('localhost:'.length) : origin + page);

const mcp = spawn('node', [join(ref, 'build/src/bin/chrome-devtools-mcp.js'), '--headless', '--isolated', '--no-usage-statistics',
  '--no-performance-crux', '--executablePath', process.env.CHROME || '/usr/bin/chromium', '--chrome-arg=--no-sandbox'], { stdio: ['pipe', 'pipe', 'inherit'] });
let buf = '';
let nextID = 1;
const waiting = new Map();
mcp.stdout.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\n')) >= 0; ) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  }
});
const rpc = (method, params) => new Promise((ok, fail) => {
  const id = nextID++;
  waiting.set(id, (m) => (m.error ? fail(new Error(method + ': ' + JSON.stringify(m.error))) : ok(m.result)));
  mcp.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
const call = async (name, args) => {
  const r = await rpc('tools/call', { name, arguments: args });
  if (r.isError) throw new Error(name + ': ' + JSON.stringify(r.content));
  return r;
};
await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'record-lh', version: '1' } });
mcp.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');

// Page tools want the page's id when the reference routes by page.
const listed = (await call('list_pages', {})).content.map((c) => c.text || '').join('\n');
const pageId = Number((/(\d+):/.exec(listed) || [0, 1])[1]);
const out = { lighthouse: '', audits: {} };
for (const page of pages) {
  const dir = mkdtempSync(join(tmpdir(), 'record-lh-'));
  await call('navigate_page', { pageId, url: pageURL(page) });
  await call('lighthouse_audit', { pageId, mode: 'navigation', device: 'desktop', outputDirPath: dir });
  const lhr = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  out.lighthouse = lhr.lighthouseVersion;
  for (const cat of ['seo', 'best-practices']) {
    for (const { id } of lhr.categories[cat].auditRefs) {
      const a = lhr.audits[id];
      // "error": the audit could not run (Lighthouse stops at a page
      // served with an error status, for one).
      const verdict = a.scoreDisplayMode === 'error' ? 'error' : a.score === null ? 'na' : a.score >= 0.9 ? 'pass' : 'fail';
      ((out.audits[id] ??= {})[page] = { verdict, score: a.score, mode: a.scoreDisplayMode });
    }
  }
  console.log(page + ': recorded');
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(join(here, 'verdicts.json'), JSON.stringify(out, null, 1) + '\n');
mcp.kill();
server.close();
