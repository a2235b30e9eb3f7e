// Returns this node's reference number in pagewalk.js's world, or 0 when
// pagewalk.js has not read the document.
function() { const r = globalThis.__devtoolsMcp; return r && r.scripted ? r.ref(this) : 0; }
