// The chart of a bench run: p99 latency against article count, one line per scenario, the app
// solid and the baseline dashed, one panel per concurrency. Vega-Lite compiled to Vega and
// rendered to SVG in Node (no browser, no canvas).
import * as vega from "vega";
import * as vegaLite from "vega-lite";
import type { DetailedRow } from "./report.ts";

export async function p99Chart(rows: DetailedRow[]): Promise<string> {
  const point = (row: DetailedRow, server: string, p99: number) => ({
    scenario: row.scenario,
    articles: row.articles,
    concurrency: `concurrency ${row.concurrency}`,
    server,
    p99,
  });
  const values = rows
    .flatMap((row) => [point(row, "Parley", row.p99_ms), point(row, "baseline", row.baseline_p99_ms)])
    // A server that answered nothing in time has no latency to plot (and a log scale has no 0).
    .filter((value) => value.p99 > 0);
  const spec: vegaLite.TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "p99 latency against article count (Parley solid, baseline dashed)",
    data: { values },
    mark: { type: "line", point: true },
    width: 320,
    height: 260,
    encoding: {
      column: { field: "concurrency", type: "nominal", title: null },
      x: { field: "articles", type: "quantitative", scale: { type: "log" }, title: "articles", axis: { values: [1_000, 10_000, 100_000] } },
      y: { field: "p99", type: "quantitative", scale: { type: "log" }, title: "p99 latency (ms)" },
      color: { field: "scenario", type: "nominal" },
      strokeDash: { field: "server", type: "nominal", legend: null },
      shape: { field: "server", type: "nominal", title: "server" },
    },
  };
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
