// The CI guard: eval/baseline.json holds the knowledge engine's figures on a deterministic slice
// of each corpus's questions; `npm run eval -- --check` measures the same slices again and fails
// when a figure of any corpus got worse by more than the baseline's tolerance, or a corpus has
// no baseline. Speed is not checked (bench does that).
import { type Figures, RATES } from "./metrics.ts";

export type Rate = (typeof RATES)[number];

export interface Baseline {
  /** How many questions each corpus's slice takes (questions.ts sliceOf over dev + test, in file order). */
  slice: number;
  /** The largest drop (rise, for `wrong`) of a rate that still passes, as a fraction. */
  tolerance: number;
  /** By corpus name. */
  corpora: Record<string, Record<Rate, number | null>>;
}

export function baselineFigures(figures: Figures): Record<Rate, number | null> {
  return Object.fromEntries(RATES.map((rate) => [rate, figures[rate]])) as Record<Rate, number | null>;
}

/** `wrong` is better when lower; every other rate when higher. */
export function compareWithBaseline(
  baseline: Baseline,
  measured: Record<string, Record<Rate, number | null>>,
): { ok: boolean; lines: string[] } {
  const lines: string[] = [];
  let ok = true;
  for (const [corpus, figures] of Object.entries(measured)) {
    const before = baseline.corpora[corpus];
    if (!before) {
      ok = false;
      lines.push(`FAIL ${corpus}: no baseline (run npm run eval -- --update-baseline)`);
      continue;
    }
    const verdict = compareFigures(before, figures, baseline.tolerance);
    ok &&= verdict.ok;
    lines.push(...verdict.lines.map((line) => `${corpus}: ${line}`));
  }
  lines.push(ok ? "Answer quality: no figure dropped beyond the tolerance." : "Answer quality dropped: see the FAIL lines above.");
  return { ok, lines };
}

function compareFigures(
  baseline: Record<Rate, number | null>,
  measured: Record<Rate, number | null>,
  tolerance: number,
): { ok: boolean; lines: string[] } {
  const lines: string[] = [];
  let ok = true;
  for (const rate of RATES) {
    const before = baseline[rate];
    const now = measured[rate];
    if (before === null || now === null) continue;
    const worse = rate === "wrong" ? now - before : before - now;
    const shown = `${rate} ${percent(before)} -> ${percent(now)}`;
    if (worse > tolerance + 1e-9) {
      ok = false;
      lines.push(
        `FAIL ${shown}: ${rate === "wrong" ? "rose" : "dropped"} by ${percent(worse)}, over the tolerance of ${percent(tolerance)}`,
      );
    } else if (worse < -1e-9) {
      lines.push(`better ${shown} (run npm run eval -- --update-baseline to raise the baseline)`);
    } else {
      lines.push(`ok ${shown}`);
    }
  }
  return { ok, lines };
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
