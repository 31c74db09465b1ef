// `npm run deps:graph`: which folder of packages/core/src imports which (each module counted in its
// folder; a file directly in src/ stands for itself; the package's entry, index.ts, left out), with
// the lint's own resolution (.dependency-cruiser.cjs). Prints the folders in layers, each importing
// only layers below its own, then the cycles between folders (imports upward) if there are any,
// and exits 1 then. Cycles between modules are the lint's (no-cycles).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCE = "packages/core/src";

/** The folder of a module of core's src (its first path segment); a file directly in src/ stands for itself. */
function folderOf(modulePath) {
  const inside = modulePath.slice(SOURCE.length + 1).split("/");
  return inside.length > 1 ? `${inside[0]}/` : inside[0];
}

/** Folder -> the other folders it imports. */
async function folderGraph() {
  process.chdir(root);
  const options = await extractDepcruiseOptions(path.join(root, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(options.tsConfig.fileName);
  const { output } = await cruise([SOURCE], { ...options, validate: false, includeOnly: `^${SOURCE}/` }, {}, { tsConfig });
  const graph = new Map();
  for (const module of output.modules) {
    // The package's entry re-exports every folder: it is the package's face, not a layer.
    // Declaration files (.d.mts) describe their .mjs module: no node of their own.
    if (!module.source.startsWith(`${SOURCE}/`) || module.source === `${SOURCE}/index.ts` || module.source.endsWith(".d.mts")) continue;
    const from = folderOf(module.source);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith(`${SOURCE}/`) || dependency.resolved.endsWith(".d.mts")) continue;
      const to = folderOf(dependency.resolved);
      if (to !== from) graph.get(from).add(to);
    }
  }
  return graph;
}

/** Layers from the bottom: each folder's imports are all in earlier layers; what is left has cycles. */
function layers(graph) {
  const placed = new Set();
  const result = [];
  for (;;) {
    const layer = [...graph.keys()].filter((folder) => !placed.has(folder) && [...graph.get(folder)].every((to) => placed.has(to)));
    if (layer.length === 0) break;
    layer.sort();
    for (const folder of layer) placed.add(folder);
    result.push(layer);
  }
  return { layers: result, unplaced: [...graph.keys()].filter((folder) => !placed.has(folder)).sort() };
}

/** One path from `start` back to itself through unplaced folders (a cycle), found depth-first. */
function cycleThrough(graph, start, unplaced) {
  const stack = [[start, [start]]];
  const seen = new Set();
  while (stack.length) {
    const [folder, trail] = stack.pop();
    for (const to of graph.get(folder)) {
      if (to === start) return [...trail, start];
      if (unplaced.has(to) && !seen.has(to)) {
        seen.add(to);
        stack.push([to, [...trail, to]]);
      }
    }
  }
  return null;
}

const graph = await folderGraph();
const width = Math.max(...[...graph.keys()].map((folder) => folder.length));
console.log(`${SOURCE}: which folder (or file directly in src/) imports which\n`);
for (const folder of [...graph.keys()].sort()) {
  const imports = [...graph.get(folder)].sort();
  console.log(`  ${folder.padEnd(width)}  -> ${imports.length ? imports.join(", ") : "(no other folder)"}`);
}
const { layers: ordered, unplaced } = layers(graph);
console.log("\nLayers, bottom first (a folder imports only the layers below its own):");
for (const [index, layer] of ordered.entries()) console.log(`  ${index + 1}. ${layer.join(", ")}`);
if (unplaced.length === 0) {
  console.log("\nNo cycle between folders.");
} else {
  const remaining = new Set(unplaced);
  const cycles = new Map();
  for (const folder of unplaced) {
    const cycle = cycleThrough(graph, folder, remaining);
    if (cycle) cycles.set([...cycle.slice(0, -1)].sort().join(","), cycle);
  }
  console.log(`\nIn cycles between folders (an import upward; no layer can hold them): ${unplaced.join(", ")}`);
  for (const cycle of cycles.values()) console.log(`  ${cycle.join(" -> ")}`);
  process.exitCode = 1;
}
