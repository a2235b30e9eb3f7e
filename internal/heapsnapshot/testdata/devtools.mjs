// devtools.mjs writes DevTools' own answers about the recorded snapshots
// beside them, as <name>.devtools.json.gz, for the corpus test (corpus_test.go).
// It loads each snapshot in the reference server's heap snapshot manager,
// which runs DevTools' heap snapshot engine, and records the figures the
// heap tools show. Run it by hand after record.go, with Node 22 or later:
//
//	node internal/heapsnapshot/testdata/devtools.mjs [name...]
//
// REF names the reference package (default
// /work/ref/node_modules/chrome-devtools-mcp). The output is data: the
// script imports the reference, it does not copy it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ref = process.env.REF ?? '/work/ref/node_modules/chrome-devtools-mcp';
const { HeapSnapshotManager } = await import(
  pathToFileURL(path.join(ref, 'build/src/processors/HeapSnapshotManager.js')).href);

const here = path.dirname(fileURLToPath(import.meta.url));
const all = ['detached', 'array-1', 'array-2', 'corpus', 'plain'];
const names = process.argv.length > 2 ? process.argv.slice(2) : all;

// Objects the corpus test looks at: the first instance (by id) of each of
// these names, or a node that has the named edge.
const probes = {
  corpus: { classes: ['FrameItem', 'PageItem', 'HTMLButtonElement'], edges: ['holder', 'topLevelCache', 'distinct', 'copies'] },
  detached: { classes: ['Detached <li>'], edges: ['keep', 'counter'] },
  'array-2': { classes: ['Item'], edges: ['items'] },
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'devtools-heap-'));
const manager = new HeapSnapshotManager();
try {
  for (const name of names) {
    const file = path.join(tmp, name + '.heapsnapshot');
    fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(here, name + '.heapsnapshot.gz'))));
    const out = await answers(file, probes[name] ?? { classes: [], edges: [] });
    if (name === 'array-2') {
      const base = path.join(tmp, 'array-1.heapsnapshot');
      if (!fs.existsSync(base)) {
        fs.writeFileSync(base, zlib.gunzipSync(fs.readFileSync(path.join(here, 'array-1.heapsnapshot.gz'))));
      }
      out.diff = await manager.getClassDiffs(base, file);
    }
    fs.writeFileSync(path.join(here, name + '.devtools.json.gz'), zlib.gzipSync(JSON.stringify(out) + '\n', { level: 9 }));
    console.log(name, 'done');
  }
} finally {
  manager.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);

async function answers(file, probe) {
  const out = {};
  out.statistics = await manager.getStats(file);
  out.nativeContextSizes = await manager.getNativeContextSizes(file);
  out.retainedByContextSummary = await manager.getRetainedByContextSummary(file);
  const filters = ['', 'objectsRetainedByDetachedDomNodes', 'objectsRetainedByConsole',
    'objectsRetainedByEventHandlers', 'objectsRetainedByContexts', 'sharedNativeContext', 'noNativeContext'];
  out.aggregates = {};
  for (const f of filters) {
    out.aggregates[f] = (await manager.getAggregates(file, f || undefined)).aggregates.map(classRow);
  }
  out.nativeContextAggregates = {};
  for (const c of out.nativeContextSizes.nativeContexts) {
    out.nativeContextAggregates[c.nodeId] = (await manager.getAggregates(file, 'attributedToSpecificNativeContext', c.nodeId)).aggregates.map(classRow);
  }
  out.duplicateStrings = (await manager.getDuplicateStrings(file)).map(g => ({ ...g, value: g.value.slice(0, 60), valueLength: g.value.length, nodes: g.nodes.map(n => n.id) }));
  try {
    out.contexts = await manager.analyzeContexts(file);
  } catch (e) {
    out.contextsError = String(e?.message ?? e);
  }
  out.nodes = {};
  const probeIds = new Set();
  for (const cls of probe.classes) {
    const objs = await manager.queryObjects(file, { className: '^' + cls.replace(/[<>]/g, m => m) + '$', sortBy: 'id' });
    if (objs.items?.length) probeIds.add(objs.items[0].id);
  }
  for (const edge of probe.edges) {
    const objs = await manager.queryObjects(file, { propertyName: '^' + edge + '$', nodeType: 'object', sortBy: 'id' });
    for (const o of objs.items ?? []) {
      const edges = await manager.getEdges(file, o.id, { sortBy: 'name', excludePrimitives: false });
      const hit = edges.items.find(e => e.name === edge);
      if (hit) { probeIds.add(hit.node.id); break; }
    }
  }
  for (const id of probeIds) {
    out.nodes[id] = {
      info: await manager.getObjectInfo(file, id),
      edges: (await manager.getEdges(file, id, { sortBy: 'retainedSize', excludePrimitives: true })).items.map(edgeRow),
      allEdges: (await manager.getEdges(file, id, { sortBy: 'retainedSize', excludePrimitives: false })).items.map(edgeRow),
      retainers: (await manager.getRetainers(file, id)).items.map(edgeRow),
      paths: paths(await manager.getRetainingPaths(file, id)),
      dominators: (await manager.getDominatorsOf(file, id)).map(d => [d.nodeId, d.selfSize, d.retainedSize]),
    };
  }
  out.queries = {};
  for (const q of ['Item', 'PageItem', 'FrameItem', 'Window']) {
    out.queries[q] = (await manager.queryObjects(file, { className: q })).items.map(o => o.id);
  }
  out.propertyQueries = {};
  for (const q of ['big', '^cached$', 'PAYLOAD', '^1$']) {
    out.propertyQueries[q] = (await manager.queryObjects(file, { propertyName: q })).items.map(o => o.id);
  }
  return out;
}

// The rows are arrays to keep the files small.

// classRow is [id, className, count, selfSize, retainedSize].
function classRow(a) {
  return [a.id, a.className, a.count, a.selfSize, a.retainedSize];
}

// edgeRow is [edge name, edge type, node id, node type, self, retained, distance].
function edgeRow(e) {
  return [e.name, e.type, e.node.id, e.node.type, e.node.selfSize, e.node.retainedSize, e.node.distance];
}

// paths gives each retainer as [edge name, edge type, node id, distance, retainers].
function paths(p) {
  const tree = ps => ps.map(r => [r.edgeName, r.edgeType, r.nodeId, r.distance, tree(r.children)]);
  return { paths: tree(p.paths), limitsReached: p.limitsReached };
}
