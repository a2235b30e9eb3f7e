// Returns the node pagewalk.js numbered ref, or null when it is gone.
function(ref) { const n = globalThis.__devtoolsMcp?.byRef[ref]?.deref(); return n && n.isConnected ? n : null; }
