// The printed tables and the developer's list of failures.
import { type Figures, type Outcome, RATES, summarize } from "./metrics.ts";

/** Figures for all outcomes ("all"), then for each group, in first-seen order. */
export function breakdown(outcomes: Outcome[], groupOf: (outcome: Outcome) => string): Map<string, Figures> {
  const groups = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    const key = groupOf(outcome);
    groups.set(key, [...(groups.get(key) ?? []), outcome]);
  }
  return new Map([["all", summarize(outcomes)], ...[...groups].map(([key, group]) => [key, summarize(group)] as const)]);
}

const COLUMNS = ["questions", "answerable", "unanswerable", ...RATES, "p50_ms", "p99_ms"] as const;

export function formatTable(rows: Map<string, Figures>, label: string): string {
  const cell = (column: (typeof COLUMNS)[number], figures: Figures): string => {
    const value = figures[column];
    if (value === null) return "-";
    return (RATES as readonly string[]).includes(column) ? `${(value * 100).toFixed(1)}%` : String(value);
  };
  const table = [[label, ...COLUMNS], ...[...rows].map(([key, figures]) => [key, ...COLUMNS.map((column) => cell(column, figures))])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join("  ")).join("\n");
}

/** One block per question the engine got wrong in any way, for --verbose. */
export function failureLines(outcomes: Outcome[]): string[] {
  return outcomes.flatMap((outcome) => {
    const { question, reply } = outcome;
    const expected = question.answers.map((answer) => answer.article);
    const problems = [
      expected.length > 0 && !outcome.top1 && (reply.abstained ? "abstained" : `cited ${reply.cited.slice(0, 3).join(", ")}`),
      expected.length > 0 && !outcome.passage && "passage missed",
      expected.length === 0 && !outcome.dontKnow && `answered from ${reply.cited[0]}`,
    ].filter(Boolean);
    if (problems.length === 0) return [];
    return [
      `- ${question.id} [${question.type}, ${question.language}] ${JSON.stringify(question.question)}`,
      `    expected: ${expected.length > 0 ? expected.join(" | ") : "no answer"}; got: ${problems.join("; ")}`,
      `    reply: ${JSON.stringify(reply.text.slice(0, 200))}`,
    ];
  });
}
