// Replays a Recorder flow with @puppeteer/replay on a fresh Chromium
// profile and prints the end state of the page as JSON:
//   node replay.cjs FLOW.json CHROME [EXPRESSION]
// The flow is parsed first by @puppeteer/replay's own schema parser, which
// refuses what the Recorder panel would. Modules come from NODE_PATH.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {parse, createRunner, PuppeteerRunnerExtension} = require('@puppeteer/replay');
const puppeteer = require('puppeteer-core');

async function main() {
  const [flowPath, chrome, expression] = process.argv.slice(2);
  const flow = parse(JSON.parse(fs.readFileSync(flowPath, 'utf8')));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-profile-'));
  const args = ['--headless=new', '--disable-gpu'];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  const browser = await puppeteer.launch({executablePath: chrome, userDataDir: profile, args, headless: true});
  try {
    const page = await browser.newPage();
    const runner = await createRunner(flow, new PuppeteerRunnerExtension(browser, page, {timeout: 10000}));
    const ok = await runner.run();
    const state = await page.evaluate(new Function('return (' + (expression || '() => null') + ')()'));
    process.stdout.write(JSON.stringify({ok, url: page.url(), title: await page.title(), state}) + '\n');
  } finally {
    await browser.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
