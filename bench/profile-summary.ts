// Where a CPU profile's time goes: the top frames by self time and the same time by package.
// Reads a V8 .cpuprofile (node --cpu-prof). Also runnable alone:
//   npx tsx bench/profile-summary.ts bench/results/profiles/<file>.cpuprofile
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package (or area) a script URL belongs to. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const modules = url.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const parts = url.slice(modules + "node_modules/".length).split("/");
    const name = parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? "?");
    return name === "next" && url.includes("/compiled/") ? `next (compiled ${parts[3] ?? ""})` : name;
  }
  if (url.includes("/.next/server/")) return "app bundle (.next/server)";
  return url.replace(/^file:\/\//, "");
}

export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });

  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = (frame: ProfileNode["callFrame"]) => {
    const shortUrl = frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/\.next\//, ".next/");
    return `${frame.functionName || "(anonymous)"}  ${shortUrl}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
  };

  const frames = new Map<string, number>();
  const totals = new Map<string, number>();
  const areas = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") continue;
    busy += micros;
    const key = keyOf(frame);
    frames.set(key, (frames.get(key) ?? 0) + micros);
    // Total (inclusive) time: every distinct frame on the stack of these samples.
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const callFrame = byId.get(at)?.callFrame;
      if (callFrame && callFrame.functionName !== "(root)") onStack.add(keyOf(callFrame));
    }
    for (const name of onStack) totals.set(name, (totals.get(name) ?? 0) + micros);
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + micros);
  }
  const line = (name: string, micros: number) =>
    `${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / Math.max(busy, 1)).toFixed(1).padStart(5)}%  ${name}`;
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return [
    `busy (non-idle) time ${(busy / 1000).toFixed(0)} ms`,
    "by package / area (self time):",
    ...sorted(areas)
      .slice(0, 15)
      .map(([name, micros]) => line(name, micros)),
    `top ${top} frames (self time):`,
    ...sorted(frames)
      .slice(0, top)
      .map(([name, micros]) => line(name, micros)),
    `top ${top} frames (total time, callees included; frames on nearly every stack left out):`,
    ...sorted(totals)
      .filter(([, micros]) => micros < 0.9 * busy)
      .slice(0, top)
      .map(([name, micros]) => line(name, micros)),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile>");
    process.exit(1);
  }
  console.log(summarizeProfile(file));
}
