// Returns the function that runs the page's developer tool name with
// params (JSON text) and resolves with {value} or {thrown}. Its arguments
// are the elements the params refer to as {__dtmcpElement: index}.
(name, params) => async function(...elements) {
  const revive = v => {
    if (Array.isArray(v)) return v.map(revive);
    if (!v || typeof v !== 'object') return v;
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '__dtmcpElement') return elements[v.__dtmcpElement];
    return Object.fromEntries(keys.map(k => [k, revive(v[k])]));
  };
  try {
    // Element arguments make this run in their frame; the tools live in the page's.
    return {value: await window.top.__dtmcp.executeTool(name, revive(JSON.parse(params)))};
  } catch (e) {
    return {thrown: e instanceof Error ? e.message || e.name : String(e)};
  }
}
