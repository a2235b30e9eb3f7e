// Hand-run tool for the trace corpus (not part of the build or of CI).
//
// It records traces of pages built to provoke every insight, with our
// server or with the reference (chrome-devtools-mcp, installed from npm),
// and runs DevTools' own trace engine, as bundled in the reference's
// package, on trace files to write down its verdicts and key numbers
// beside them. The Go test TestCorpusAgreesWithDevTools compares our
// analysis of each trace with that file.
//
//	node devtools.mjs record ours /path/to/devtools-mcp   # ours-*.json.gz
//	node devtools.mjs record ref                          # ref-*.json.gz
//	node devtools.mjs verdicts [files...]                 # *.devtools.json
//
// PAGES=docs,underscore records only those pages. The docs pages read
// Debian's documentation and script packages (python3, libjs-jquery,
// libjs-underscore, libjs-sphinxdoc).
//
// REF (default /work/ref/node_modules/chrome-devtools-mcp) is where the
// reference is installed; CHROME (default /usr/bin/chromium) the browser.
// Traces are trimmed of screenshots (no insight reads them) and gzipped.

import {spawn} from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const REF = process.env.REF ?? '/work/ref/node_modules/chrome-devtools-mcp';
const CHROME = process.env.CHROME ?? '/usr/bin/chromium';

// ---- pages ---------------------------------------------------------------

const sleep = ms => new Promise(r => setTimeout(r, ms));

// lib is a deterministic script of about n bytes, standing in for a library.
function lib(name, n) {
  let out = `/* ${name} */\n(function(){var api={};\n`;
  for (let i = 0; out.length < n; i++) {
    out += `api.f${i}=function(a,b){var s=0;for(var j=0;j<a;j++){s+=j*${i % 97}+b;}return s;};\n`;
  }
  return out + `window.${name}=api;})();\n`;
}

// legacy is a script of about n bytes carrying polyfills of features every
// current browser has.
function legacy(n) {
  let out = `(function(){
if(!Array.prototype.includes){Array.prototype.includes=function(v){return this.indexOf(v)!==-1;};}
if(!Object.assign){Object.assign=function(t){for(var i=1;i<arguments.length;i++){var s=arguments[i];for(var k in s){t[k]=s[k];}}return t;};}
if(!String.prototype.startsWith){Object.defineProperty(String.prototype,"startsWith",{value:function(s){return this.indexOf(s)===0;}});}
`;
  for (let i = 0; out.length < n; i++) out += `var helper${i}=function(x){return x+${i};};\n`;
  return out + '})();\n';
}

// png encodes a w×h noise image (it does not compress), to be shown small.
function png(w, h) {
  const crcTable = Array.from({length: 256}, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = b => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  let seed = 42;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = i % (w * 3 + 1) === 0 ? 0 : seed >> 16;
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const bigLib = lib('bigLib', 40000);
const legacyJS = legacy(12000);
const hero = png(1200, 800);
const small = png(300, 200);

const head = (title, extra = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${extra}</head>`;

// pages maps each corpus page to its route handler. Other routes are the
// resources they load.
const pages = {
  // A slow stylesheet and a slow synchronous script hold the first paint
  // back; the LCP image is inserted by script (not discoverable).
  '/blocking': (req, res) => html(res, head('Render blocking', '<link rel="stylesheet" href="/slow.css"><script src="/slow.js"></script>') +
    `<body><h1>Render-blocking resources</h1><div id="slot"></div>
<script>const i = new Image(); i.src = '/hero.png?b'; i.width = 600; i.height = 400; document.getElementById('slot').append(i);</script></body></html>`),
  // An unsized image above the text arrives 2.5 s after load and pushes it
  // down; a web font with font-display: block loads late.
  '/lateshift': (req, res) => html(res, head('Late shift', `<style>@font-face{font-family:Late;src:url(/font.woff2) format("woff2");font-display:block}
h1{font-family:Late,serif}</style>`) + `<body><h1>Late layout shift</h1><img src="/late.png" alt="late">
<p>${'Text that moves down when the image above it arrives. '.repeat(30)}</p></body></html>`),
  // A large PNG shown at a fraction of its size.
  '/images': (req, res) => html(res, head('Images') + `<body><h1>Oversized image</h1>
<img src="/hero.png" width="300" height="200" alt="hero"><p>An image downloaded far bigger than it is shown.</p></body></html>`),
  // Thousands of elements and a style change that relayouts them all.
  '/bigdom': (req, res) => html(res, head('Big DOM') + `<body><h1>Big DOM</h1><div id="list">${'<div class="row"><span>row</span><b>cell</b></div>'.repeat(3000)}</div>
<script>addEventListener('load', () => setTimeout(() => { document.getElementById('list').style.fontSize = '20px'; document.body.offsetHeight; }, 100));</script></body></html>`),
  // Script that reads layout after every style change, in one long task.
  '/reflow': (req, res) => html(res, head('Forced reflow') + `<body><h1>Forced reflow</h1><div id="box">${'<p>paragraph of text</p>'.repeat(800)}</div>
<script>addEventListener('load', () => setTimeout(function thrash() { const b = document.getElementById('box'); let h = 0;
for (let i = 0; i < 60; i++) { b.style.width = (400 + i) + 'px'; h += b.offsetHeight; } window.h = h; }, 100));</script></body></html>`),
  // No viewport meta tag and no charset anywhere.
  '/noviewport': (req, res) => {
    res.writeHead(200, {'Content-Type': 'text/html'});
    res.end(`<!doctype html><html><head><title>No viewport</title></head><body><h1>No viewport, no charset</h1><p>Plain page.</p></body></html>`);
  },
  // A script from another site (localhost is another host than 127.0.0.1).
  '/thirdparty': (req, res) => html(res, head('Third party') + `<body><h1>Third party</h1>
<script src="http://localhost:${port}/tp.js"></script></body></html>`),
  // Two copies of one library, polyfills in a 12 kB script, and a tiny one.
  '/scripts': (req, res) => html(res, head('Scripts') + `<body><h1>Scripts</h1>
<script src="/lib-a.js"></script><script src="/lib-b.js"></script><script src="/legacy.js"></script><script src="/tiny-polyfill.js"></script></body></html>`),
  // No script at all, one small forced layout: traced after /scripts and
  // after a 404 it must be judged on its own.
  '/plain': (req, res) => html(res, head('Plain') + `<body><h1>Plain</h1><p id="p">Nothing to see.</p>
<script>document.getElementById('p').style.padding = '4px'; document.body.offsetHeight;</script></body></html>`),
  // Real documentation, where Debian has it: a Sphinx page with jQuery,
  // underscore and Sphinx's scripts, and underscore's own manual.
  '/docs': (req, res) => {
    const doc = fs.readFileSync('/usr/share/doc/python3/python-policy.html', 'utf8');
    const scripts = ['jquery/jquery.js', 'underscore/underscore.js', 'sphinxdoc/1.0/doctools.js', 'sphinxdoc/1.0/searchtools.js']
      .map(s => `<script src="/js/${s}"></script>`).join('');
    html(res, doc.replace(/<\/head>/i, scripts + '</head>'));
  },
  '/underscore': (req, res) => html(res, fs.readFileSync('/usr/share/doc/libjs-underscore/index.html', 'utf8')
    .replace('src="underscore-umd.js"', 'src="/js/underscore/underscore.js"')),
  '/notfound': (req, res) => { res.writeHead(404, {'Content-Type': 'text/html; charset=utf-8'}); res.end('<!doctype html><title>Not found</title><h1>404</h1>'); },
  // Two redirects, then a document the server takes 900 ms to answer.
  '/redirect/a': (req, res) => { res.writeHead(302, {Location: '/redirect/b'}); res.end(); },
  '/redirect/b': (req, res) => { res.writeHead(302, {Location: '/redirect/final'}); res.end(); },
  '/redirect/final': async (req, res) => { await sleep(900); html(res, head('Redirected') + '<body><h1>Redirected</h1><p>After two redirects.</p></body></html>'); },
};

function html(res, body) {
  res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'});
  res.end(body);
}

async function resource(req, res) {
  const u = new URL(req.url, 'http://x');
  const send = (type, body, delay = 0) => sleep(delay).then(() => { res.writeHead(200, {'Content-Type': type}); res.end(body); });
  if (u.pathname.startsWith('/js/') && !u.pathname.includes('..')) {
    try {
      return send('text/javascript', fs.readFileSync('/usr/share/javascript/' + u.pathname.slice(4)));
    } catch {}
  }
  switch (u.pathname) {
    case '/slow.css': return send('text/css', 'body{font-family:sans-serif;margin:0}h1{color:#234}', 400);
    case '/slow.js': return send('text/javascript', 'window.slow = 1;', 300);
    case '/hero.png': return send('image/png', hero, 200);
    case '/late.png': return send('image/png', small, 2500);
    case '/font.woff2': return send('font/woff2', Buffer.alloc(2000, 1), 600);
    case '/lib-a.js': case '/lib-b.js': return send('text/javascript', bigLib);
    case '/legacy.js': return send('text/javascript', legacyJS);
    case '/tiny-polyfill.js': return send('text/javascript', 'if(!Array.prototype.includes){Array.prototype.includes=function(v){return this.indexOf(v)!==-1;};}\n');
    case '/tp.js': return send('text/javascript', lib('thirdParty', 20000));
  }
  res.writeHead(404);
  res.end();
}

let port = 0;
function serve() {
  const srv = http.createServer((req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    (pages[p] ?? resource)(req, res);
  });
  return new Promise(r => srv.listen(0, '127.0.0.1', () => { port = srv.address().port; r(srv); }));
}

// ---- driving an MCP server -------------------------------------------------

class Client {
  constructor(cmd, args) {
    this.proc = spawn(cmd, args, {cwd: here, stdio: ['pipe', 'pipe', 'inherit']});
    this.next = 1;
    this.waiting = new Map();
    let buf = '';
    this.proc.stdout.on('data', d => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        if (msg.method === 'roots/list' && msg.id !== undefined) {
          // The traces are written here: the one root the servers may use.
          this.proc.stdin.write(JSON.stringify({jsonrpc: '2.0', id: msg.id, result: {roots: [{uri: 'file://' + here, name: 'corpus'}]}}) + '\n');
          continue;
        }
        const w = this.waiting.get(msg.id);
        if (w) { this.waiting.delete(msg.id); w(msg); }
      }
    });
  }
  send(method, params) {
    const id = this.next++;
    this.proc.stdin.write(JSON.stringify({jsonrpc: '2.0', id, method, params}) + '\n');
    return new Promise(r => this.waiting.set(id, r));
  }
  async call(name, args) {
    if (this.pageId !== undefined) args = {pageId: this.pageId, ...args};
    const msg = await this.send('tools/call', {name, arguments: args});
    const text = (msg.result?.content ?? []).map(c => c.text ?? '').join('\n');
    if (msg.error || msg.result?.isError) throw new Error(`${name}: ${msg.error?.message ?? text}`);
    return text;
  }
  async start() {
    await this.send('initialize', {protocolVersion: '2025-06-18', capabilities: {roots: {}}, clientInfo: {name: 'corpus', version: '1'}});
    this.proc.stdin.write(JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}) + '\n');
    // Page tools may want the page's id: take the selected one's.
    const pages = await this.call('list_pages', {});
    const m = pages.match(/^(\d+):.*\[selected\]/m) ?? pages.match(/^(\d+):/m);
    if (m) this.pageId = Number(m[1]);
  }
  close() { this.proc.stdin.end(); this.proc.kill(); }
}

// trimmed rewrites a trace file without screenshots, gzipped.
function trim(file) {
  let raw = fs.readFileSync(file);
  if (raw[0] === 0x1f) raw = zlib.gunzipSync(raw);
  const j = JSON.parse(raw);
  const events = (Array.isArray(j) ? j : j.traceEvents).filter(e => e.name !== 'Screenshot');
  const out = Array.isArray(j) ? events : {...j, traceEvents: events};
  const dst = file.endsWith('.gz') ? file : file + '.gz';
  fs.writeFileSync(dst, zlib.gzipSync(JSON.stringify(out), {level: 9}));
  fs.chmodSync(dst, 0o644);
  if (dst !== file) fs.unlinkSync(file);
  return dst;
}

async function record(who, binary) {
  const srv = await serve();
  const base = `http://127.0.0.1:${port}`;
  const flags = ['--headless', '--isolated', '--executablePath', CHROME];
  const client = who === 'ref'
    ? new Client('node', [path.join(REF, 'build/src/bin/chrome-devtools-mcp.js'), ...flags,
      '--chromeArg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux'])
    : new Client(binary, flags);
  await client.start();
  const out = name => path.join(here, `${who}-${name}.json.gz`);
  const traced = async (name, url) => {
    await client.call('navigate_page', {type: 'url', url: base + url});
    await client.call('performance_start_trace', {reload: true, autoStop: true, filePath: out(name)});
    console.log('recorded', trim(out(name)));
  };
  // PAGES=docs,underscore records only those.
  const only = process.env.PAGES?.split(',');
  const want = name => !only || only.includes(name);
  try {
    for (const p of ['blocking', 'lateshift', 'images', 'bigdom', 'reflow', 'noviewport', 'thirdparty', 'scripts', 'docs', 'underscore']) {
      if (want(p)) await traced(p, '/' + p);
    }
    if (!only) {
      await traced('plain-after-scripts', '/plain');
      await traced('notfound', '/notfound');
      await traced('plain-after-404', '/plain');
    }
    if (only) return;
    // Redirects happen only on a navigation to the first URL, not on a
    // reload of the last: trace the navigation by hand.
    await client.call('navigate_page', {type: 'url', url: base + '/plain'});
    await client.call('performance_start_trace', {reload: false, autoStop: false});
    await client.call('navigate_page', {type: 'url', url: base + '/redirect/a'});
    await sleep(3000);
    await client.call('performance_stop_trace', {filePath: out('redirect')});
    console.log('recorded', trim(out('redirect')));
  } finally {
    client.close();
    srv.close();
  }
}

// ---- DevTools' verdicts ----------------------------------------------------

async function engine() {
  const {DevTools} = await import(path.join(REF, 'build/src/third_party/index.js'));
  const {parseRawTraceBuffer} = await import(path.join(REF, 'build/src/processors/PerformanceTrace.js'));
  DevTools.I18n.DevToolsLocale.DevToolsLocale.instance({create: true, data: {navigatorLanguage: 'en-US', settingLanguage: 'en-US', lookupClosestDevToolsLocale: l => l}});
  DevTools.I18n.i18n.registerLocaleDataForTest('en-US', {});
  return parseRawTraceBuffer;
}

const ms = us => us === undefined || us === null ? null : Math.round(Number(us)) / 1000;

// numbers are the key numbers of an insight that the Go test compares.
function numbers(name, m) {
  const n = {};
  const savings = m.metricSavings ?? {};
  for (const k of ['FCP', 'LCP', 'INP', 'CLS']) if (typeof savings[k] === 'number') n['savings' + k] = savings[k];
  if (typeof m.wastedBytes === 'number') n.wastedBytes = m.wastedBytes;
  switch (name) {
    case 'RenderBlocking': n.requests = m.renderBlockingRequests.length; break;
    case 'DocumentLatency': if (m.data) { n.redirectMs = m.data.redirectDuration; n.serverMs = m.data.serverResponseTime; n.uncompressedBytes = m.data.uncompressedResponseBytes; } break;
    case 'DuplicatedJavaScript': n.duplicates = m.duplication?.size ?? 0; break;
    case 'LegacyJavaScript': n.scripts = m.legacyJavaScriptResults?.size ?? 0; break;
    case 'ForcedReflow': n.reflowMs = ms((m.aggregatedBottomUpData ?? []).reduce((a, d) => a + d.totalTime, 0)); break;
    case 'ThirdParties': n.entities = (m.entitySummaries ?? []).filter(s => s.entity !== m.firstPartyEntity).length; break;
    case 'Cache': n.requests = m.requests?.length ?? 0; break;
    case 'ImageDelivery': n.images = m.optimizableImages?.length ?? 0; break;
    case 'FontDisplay': n.fonts = m.fonts?.length ?? 0; break;
    case 'CLSCulprits': {
      const worst = m.worstCluster;
      n.cls = worst?.clusterCumulativeScore ?? 0;
      const culprits = worst ? m.topCulpritsByCluster?.get(worst) ?? [] : [];
      n.culprits = culprits.map(c => c.type).sort().join(',');
      break;
    }
    case 'Viewport': n.mobileOptimized = m.mobileOptimized; break;
    case 'CharacterSet': n.metaCharset = m.data?.metaCharsetDisposition ?? null; break;
  }
  return n;
}

async function verdicts(files) {
  const parse = await engine();
  for (const file of files) {
    let buf = fs.readFileSync(file);
    if (buf[0] === 0x1f) buf = zlib.gunzipSync(buf);
    // Timed on a second run, once the engine's code is warm.
    await parse(buf);
    const t0 = performance.now();
    const r = await parse(buf);
    const took = performance.now() - t0;
    if (r.error) throw new Error(`${file}: ${r.error}`);
    const pm = r.parsedTrace.data.PageLoadMetrics;
    const sets = [];
    for (const [id, set] of r.insights) {
      const m = set.model;
      const fm = set.navigation ? pm.metricScoresByFrameId.get(set.frameId)?.get(set.navigation) : undefined;
      const sub = m.LCPBreakdown?.subparts;
      const metrics = {
        fcpMs: ms(fm?.get('FCP')?.timing), lcpMs: ms(fm?.get('LCP')?.timing),
        ttfbMs: sub ? Math.round(sub.ttfb.range) / 1000 : null,
        cls: m.CLSCulprits?.worstCluster?.clusterCumulativeScore ?? 0,
        inpMs: ms(m.INPBreakdown?.longestInteractionEvent?.dur),
      };
      if (sub) metrics.lcpPhasesMs = Object.fromEntries(Object.entries(sub).map(([k, v]) => [k, Math.round(v.range) / 1000]));
      const insights = {};
      for (const [name, ins] of Object.entries(m)) {
        if (ins instanceof Error) continue;
        insights[name] = {state: ins.state, numbers: numbers(name, ins)};
      }
      sets.push({id, url: set.url?.href ?? '', metrics, insights});
    }
    const dst = file.replace(/\.json(\.gz)?$/, '.devtools.json');
    fs.writeFileSync(dst, JSON.stringify({trace: path.basename(file), engineMs: Math.round(took), sets}, null, 1) + '\n');
    console.log('wrote', dst, `(${Math.round(took)} ms)`);
  }
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'record') {
  await record(rest[0], rest[1]);
} else if (cmd === 'verdicts') {
  const files = rest.length ? rest : fs.readdirSync(here).filter(f => f.endsWith('.json.gz')).map(f => path.join(here, f));
  await verdicts(files);
} else {
  console.error('usage: node devtools.mjs record ours BINARY | record ref | verdicts [files...]');
  process.exit(2);
}
