// The CI guard: eval/baseline.json holds the knowledge engine's figures on a deterministic slice
// of the questions; `npm run eval -- --check` measures the same slice again and fails when a
// figure got worse by more than the baseline's tolerance. Speed is not checked (bench does that).
import { type Figures, RATES } from "./metrics.ts";

export type Rate = (typeof RATES)[number];

export interface Baseline {
  /** How many questions the slice takes (questions.ts sliceOf over dev + test, in file order). */
  slice: number;
  /** The largest drop (rise, for `wrong`) of a rate that still passes, as a fraction. */
  tolerance: number;
  figures: Record<Rate, number | null>;
}

export function baselineFigures(figures: Figures): Record<Rate, number | null> {
  return Object.fromEntries(RATES.map((rate) => [rate, figures[rate]])) as Record<Rate, number | null>;
}

/** `wrong` is better when lower; every other rate when higher. */
export function compareWithBaseline(baseline: Baseline, measured: Record<Rate, number | null>): { ok: boolean; lines: string[] } {
  const lines: string[] = [];
  let ok = true;
  for (const rate of RATES) {
    const before = baseline.figures[rate];
    const now = measured[rate];
    if (before === null || now === null) continue;
    const worse = rate === "wrong" ? now - before : before - now;
    const shown = `${rate} ${percent(before)} -> ${percent(now)}`;
    if (worse > baseline.tolerance + 1e-9) {
      ok = false;
      lines.push(
        `FAIL ${shown}: ${rate === "wrong" ? "rose" : "dropped"} by ${percent(worse)}, over the tolerance of ${percent(baseline.tolerance)}`,
      );
    } else if (worse < -1e-9) {
      lines.push(`better ${shown} (run npm run eval -- --update-baseline to raise the baseline)`);
    } else {
      lines.push(`ok ${shown}`);
    }
  }
  lines.push(ok ? "Answer quality: no figure dropped beyond the tolerance." : "Answer quality dropped: see the FAIL lines above.");
  return { ok, lines };
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
