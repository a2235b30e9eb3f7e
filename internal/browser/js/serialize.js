// Turns any value into JSON text plus the DOM nodes it holds,
// which are replaced by "@@node:i@@" markers. Cycles, functions, symbols,
// BigInts, NaN, Maps, Sets and errors get readable stand-ins, and a budget
// stops runaway graphs such as window.
function() {
  const nodes = [], path = [];
  let budget = 20000;
  const conv = v => {
    switch (typeof v) {
      case 'bigint': return v + 'n';
      case 'function': return '[Function ' + (v.name || 'anonymous') + ']';
      case 'symbol': return v.toString();
      case 'number': return Number.isFinite(v) ? v : String(v);
      case 'object': break;
      default: return v;
    }
    if (v === null) return null;
    if (typeof Node !== 'undefined' && v instanceof Node) { nodes.push(v); return '@@node:' + (nodes.length - 1) + '@@'; }
    if (path.includes(v)) return '[Circular]';
    if (--budget < 0 || path.length > 30) return '[...]';
    if (typeof v.toJSON === 'function' && !(v instanceof Error)) return conv(v.toJSON());
    path.push(v);
    try {
      if (v instanceof Error) return {name: v.name, message: v.message, stack: v.stack};
      if (v instanceof Map) return Object.fromEntries(Array.from(v, ([k, x]) => [String(k), conv(x)]));
      if (v instanceof Set || Array.isArray(v) || ArrayBuffer.isView(v) ||
          (typeof NodeList !== 'undefined' && (v instanceof NodeList || v instanceof HTMLCollection))) return Array.from(v, conv);
      const out = {};
      for (const k of Object.keys(v)) { const c = conv(v[k]); if (c !== undefined) out[k] = c; }
      return out;
    } finally { path.pop(); }
  };
  const r = conv(this);
  return [r === undefined ? 'undefined' : JSON.stringify(r), ...nodes];
}
