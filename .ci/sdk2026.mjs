// Drives devtools-mcp with the official TypeScript MCP client
// (@modelcontextprotocol/client 2.x) in its 2026-07-28 mode ("auto": probe
// with server/discover, then stateless requests), over stdio and over
// Streamable HTTP. Run by .ci/sdk2026 with the binary's path as argument.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const binary = process.argv[2];
if (!binary) throw new Error('usage: node sdk2026.mjs <devtools-mcp binary>');

function check(cond, what) {
  if (!cond) throw new Error('FAIL: ' + what);
  console.log('ok: ' + what);
}

const text = (res) => (res.content ?? []).map((c) => c.text ?? '').join('');

// The pages: a bank the sensitive-page guard protects, and a plain one.
const site = createServer((req, res) => {
  res.setHeader('Content-Type', 'text/html');
  if (req.url.startsWith('/bank/')) {
    res.end(`<title>Bank</title><button onclick="document.title='paid'">Pay</button>`);
  } else {
    res.end(`<title>Hello TS</title><h1>Hi</h1>`);
  }
});
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${site.address().port}`;

const config = mkdtempSync(join(tmpdir(), 'sdk2026-'));
mkdirSync(join(config, 'devtools-mcp'));
writeFileSync(join(config, 'devtools-mcp', 'sensitive-patterns.txt'), `${origin}/bank/*\n`);
const env = { ...process.env, XDG_CONFIG_HOME: config };
const flags = ['--headless', '--isolated', '--sensitivePages=on'];

function newClient(answer) {
  const client = new Client(
    { name: 'sdk2026', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async (req) => {
    answer.asked.push(req.params.message);
    return { action: answer.action, content: {} };
  });
  return client;
}

async function exercise(client, answer, where) {
  check(client.getNegotiatedProtocolVersion() === '2026-07-28', `${where}: negotiated ${client.getNegotiatedProtocolVersion()}`);
  const tools = await client.listTools();
  check(tools.tools.some((t) => t.name === 'take_snapshot') && tools.tools.length >= 20, `${where}: tools/list has ${tools.tools.length} tools`);
  const nav = await client.callTool({ name: 'navigate_page', arguments: { url: `${origin}/hello` } });
  check(text(nav).includes('Hello TS'), `${where}: navigate_page`);

  await client.callTool({ name: 'navigate_page', arguments: { url: `${origin}/bank/` } });
  const snap = text(await client.callTool({ name: 'take_snapshot', arguments: {} }));
  const uid = /uid=(\S+) button "Pay"/.exec(snap)?.[1];
  check(uid, `${where}: the Pay button has a uid`);
  answer.action = 'decline';
  const declined = await client.callTool({ name: 'click', arguments: { uid } });
  check(declined.isError && text(declined).includes('declined'), `${where}: a declined confirmation refuses the click`);
  check(text(await client.callTool({ name: 'take_snapshot', arguments: {} })).includes('RootWebArea "Bank"'), `${where}: the page was not touched`);
  answer.action = 'accept';
  const accepted = await client.callTool({ name: 'click', arguments: { uid } });
  check(!accepted.isError, `${where}: an accepted confirmation clicks`);
  check(text(await client.callTool({ name: 'take_snapshot', arguments: {} })).includes('RootWebArea "paid"'), `${where}: the click ran`);
  check(answer.asked.length === 2 && answer.asked[0].includes(`${origin}/bank/`), `${where}: the user was asked twice, about the bank page`);
}

// stdio
{
  const answer = { action: 'accept', asked: [] };
  const client = newClient(answer);
  await client.connect(new StdioClientTransport({ command: binary, args: flags, env, stderr: 'inherit' }));
  await exercise(client, answer, 'stdio');
  await client.close();
}

// Streamable HTTP
{
  const server = spawn(binary, ['--port', '0', ...flags], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    server.stderr.on('data', (d) => {
      seen += d;
      const m = /serving MCP over Streamable HTTP at (http:\/\/\S+)/.exec(seen);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${seen}`)));
  });
  try {
    const answer = { action: 'accept', asked: [] };
    const client = newClient(answer);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await exercise(client, answer, 'http');
    await client.close();
  } finally {
    server.kill('SIGTERM');
  }
}
site.close();
console.log('PASS: the TypeScript client speaks 2026-07-28 with devtools-mcp');
