// Runs the devtools-mcp binary that npm installed for this platform, with
// this process's arguments, standard streams and environment, and exits as
// it exits. The binary comes from the optional dependency
// @devtools-mcp/<platform>-<arch>; npm installs only the one whose "os" and
// "cpu" match. DEVTOOLS_MCP_BINARY points at another binary instead.
'use strict';

const {spawn} = require('node:child_process');
const fs = require('node:fs');

function binaryPath() {
  if (process.env.DEVTOOLS_MCP_BINARY) {
    return process.env.DEVTOOLS_MCP_BINARY;
  }
  const pkg = `@devtools-mcp/${process.platform}-${process.arch}`;
  const exe = process.platform === 'win32' ? 'devtools-mcp.exe' : 'devtools-mcp';
  let file;
  try {
    file = require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    process.stderr.write(
      `devtools-mcp: no binary for ${process.platform}-${process.arch}: the package ${pkg} is not installed.\n` +
        'If npm skipped optional dependencies (--omit=optional or --no-optional), install again without that;\n' +
        'otherwise this platform has no release build: see the README for building from source.\n',
    );
    process.exit(1);
  }
  // npm does not always keep the executable bit of files outside "bin".
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(file, 0o755);
    } catch {}
  }
  return file;
}

// run starts the binary under the given argv[0]: the binary answers the
// chrome-devtools command-line grammar when it is called by that name.
function run(name) {
  const child = spawn(binaryPath(), process.argv.slice(2), {stdio: 'inherit', argv0: name});
  const forward = signal => () => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, forward(signal));
  }
  child.on('error', err => {
    process.stderr.write(`devtools-mcp: cannot start ${binaryPath()}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

module.exports = {run};
