// Installs window.__dtmcp in the page (once per document) and
// returns it. Discovery dispatches the event, accepts respondWith calls
// until the next task, and keeps the valid groups. The flag marks the copy
// installed by the new-document script, so it is added once per session.
function(fromNewDocument) {
  const old = window.__dtmcp;
  if (old && old.__version === 1) {
    if (fromNewDocument) old.__fromNewDocument = true;
    return old;
  }
  const forAgent = (schema, onElement) => {
    if (Array.isArray(schema)) return schema.map(s => forAgent(s, onElement));
    if (!schema || typeof schema !== 'object') return schema;
    if (schema['x-mcp-type'] === 'HTMLElement') {
      onElement();
      const s = {type: 'object', properties: {uid: {type: 'string', description: 'uid of the element from take_snapshot'}}, required: ['uid']};
      if (typeof schema.description === 'string') s.description = schema.description;
      return s;
    }
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, forAgent(v, onElement)]));
  };
  const describe = tool => {
    let elements = false;
    const inputSchema = forAgent(JSON.parse(JSON.stringify(tool.inputSchema)), () => { elements = true; });
    return {name: tool.name, description: tool.description, inputSchema, takesElements: elements};
  };
  const check = group => {
    if (!group || typeof group !== 'object') return 'respondWith() needs a tool group object, got ' + (group === null ? 'null' : typeof group);
    if (typeof group.name !== 'string' || !group.name) return 'a tool group has no name (a non-empty string)';
    const where = 'tool group "' + group.name + '"';
    if (group.description !== undefined && typeof group.description !== 'string') return where + ': description must be a string';
    if (!Array.isArray(group.tools)) return where + ': tools must be an array';
    for (const [i, t] of group.tools.entries()) {
      const tool = where + ', tool ' + (t && typeof t.name === 'string' ? '"' + t.name + '"' : '#' + (i + 1));
      if (!t || typeof t !== 'object') return tool + ' is not an object';
      if (typeof t.name !== 'string' || !t.name) return tool + ': name must be a non-empty string';
      if (typeof t.description !== 'string') return tool + ': description must be a string';
      if (!t.inputSchema || typeof t.inputSchema !== 'object' || Array.isArray(t.inputSchema)) return tool + ': inputSchema must be a JSON Schema object';
      if (typeof t.execute !== 'function') return tool + ': execute must be a function';
      try { JSON.stringify(t.inputSchema); } catch (e) { return tool + ': inputSchema is not JSON (' + e.message + ')'; }
    }
    return '';
  };
  const api = {
    __version: 1,
    __fromNewDocument: !!fromNewDocument,
    toolGroups: undefined,
    discover() {
      return new Promise(resolve => {
        const groups = [], problems = [];
        let open = true;
        const event = new CustomEvent('devtoolstooldiscovery');
        event.respondWith = group => {
          if (!open) {
            console.warn('devtoolstooldiscovery: respondWith() was called after discovery ended; call it while handling the event');
            return;
          }
          const problem = check(group);
          if (problem) {
            problems.push(problem);
            console.error('devtoolstooldiscovery: ignored ' + problem);
            return;
          }
          const seen = new Set(groups.flatMap(g => g.tools.map(t => t.name)));
          for (const t of group.tools) {
            if (seen.has(t.name)) problems.push('tool "' + t.name + '" of tool group "' + group.name + '" has the name of an earlier tool; calls go to the earlier one');
          }
          groups.push(group);
        };
        window.dispatchEvent(event);
        // Answers given in the next microtasks count too: wait one task.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          open = false;
          channel.port1.close();
          api.toolGroups = groups;
          resolve({
            groups: groups.map(g => ({name: g.name, description: g.description || '', tools: g.tools.map(describe)})),
            problems,
          });
        };
        channel.port2.postMessage(null);
      });
    },
    async find(name) {
      // A tool the last discovery did not see may have been added since.
      for (let fresh = !api.toolGroups; ; fresh = true) {
        if (fresh) await api.discover();
        const tools = api.toolGroups.flatMap(g => g.tools);
        const tool = tools.find(t => t.name === name);
        if (tool) return {tool: describe(tool)};
        if (fresh) return {available: tools.map(t => t.name)};
      }
    },
    async executeTool(name, params) {
      if (!api.toolGroups) await api.discover();
      for (const group of api.toolGroups) {
        const tool = group.tools.find(t => t.name === name);
        if (tool) return await tool.execute(params === undefined ? {} : params);
      }
      const names = api.toolGroups.flatMap(g => g.tools.map(t => t.name));
      throw new Error(names.length ? 'no tool named "' + name + '"; the page exposes: ' + names.join(', ')
        : 'the page exposes no tools (nothing answered the devtoolstooldiscovery event)');
    },
  };
  Object.defineProperty(window, '__dtmcp', {value: api, configurable: true, writable: true});
  return api;
}
