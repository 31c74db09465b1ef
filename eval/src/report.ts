// The printed tables, the rows of eval/results, and the developer's list of failures.
import type { EngineName } from "@parley/testing/eval-corpus";
import type { HelpSearchFigures, PeerRun } from "./evaluate.ts";
import { type Figures, type Outcome, RATES, summarize } from "./metrics.ts";
import type { PeerName } from "./peers.ts";

/** What one corpus gave: each engine's outcomes, each peer's, and the help search's figures. */
export interface CorpusResult {
  corpus: string;
  engines: Map<EngineName, Outcome[]>;
  peers: Map<PeerName, PeerRun>;
  helpSearch?: HelpSearchFigures;
}

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

type ResultRow = { corpus: string; engine: string } & Record<string, unknown>;

/** A peer's figures: it quotes nothing, so it has no passage figure. */
function peerFigures(run: PeerRun): Figures & { threshold: number; top1_same_rate: number | null } {
  return {
    ...summarize(run.outcomes),
    passage: null,
    threshold: Math.round(run.threshold * 10_000) / 10_000,
    top1_same_rate: run.top1AtSameRate,
  };
}

/**
 * The rows of eval/results/latest.json: per corpus, each engine by language ("all" first), each
 * peer and the help search; then corpus "all", the mean of the corpora's "all" rows (rates
 * averaged, counts added), so no corpus weighs more for having more questions.
 */
export function resultRows(results: CorpusResult[]): { byLanguage: ResultRow[]; byType: ResultRow[] } {
  const byLanguage: ResultRow[] = [];
  const byType: ResultRow[] = [];
  for (const result of results) {
    const { corpus } = result;
    for (const [engine, outcomes] of result.engines) {
      for (const [language, figures] of breakdown(outcomes, (outcome) => outcome.question.language)) {
        byLanguage.push({ corpus, engine, language, ...figures });
      }
      for (const [type, figures] of breakdown(outcomes, (outcome) => outcome.question.type)) {
        if (type !== "all") byType.push({ corpus, engine, type, ...figures });
      }
    }
    for (const [peer, run] of result.peers) byLanguage.push({ corpus, engine: peer, language: "all", ...peerFigures(run) });
    if (result.helpSearch) byLanguage.push({ corpus, engine: "help-search", language: "all", ...result.helpSearch });
  }
  const overall = byLanguage.filter((row) => row.language === "all");
  for (const engine of [...new Set(overall.map((row) => row.engine))]) {
    byLanguage.push({ corpus: "all", engine, language: "all", ...meanOf(overall.filter((row) => row.engine === engine)) });
  }
  return { byLanguage, byType };
}

const SUMMED = new Set(["questions", "answerable", "unanswerable"]);
/** A peer's threshold is on its corpus's own score scale: a mean of them means nothing. */
const NOT_AVERAGED = new Set(["corpus", "engine", "language", "threshold"]);

function meanOf(rows: ResultRow[]): Record<string, number | null> {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => !NOT_AVERAGED.has(key));
  return Object.fromEntries(
    keys.map((key) => {
      const values = rows.map((row) => row[key]).filter((value): value is number => typeof value === "number");
      if (values.length === 0) return [key, null];
      const sum = values.reduce((total, value) => total + value, 0);
      return [key, SUMMED.has(key) ? sum : Math.round((sum / values.length) * 10_000) / 10_000];
    }),
  );
}

const SUMMARY_RATES: readonly string[] = [...RATES, "top5", "top1_same_rate"];

/** One line per corpus and row (engines, peers, help search), then the mean of the corpora. */
export function formatSummary(results: CorpusResult[]): string {
  const rows = resultRows(results).byLanguage.filter((row) => row.language === "all");
  const columns = ["corpus", "row", "answerable", "unanswerable", ...SUMMARY_RATES];
  const cell = (row: ResultRow, column: string): string => {
    if (column === "corpus") return row.corpus;
    if (column === "row") return row.engine;
    const value = row[column];
    if (typeof value !== "number") return "-";
    return SUMMARY_RATES.includes(column) ? `${(value * 100).toFixed(1)}%` : String(value);
  };
  const table = [columns, ...rows.map((row) => columns.map((column) => cell(row, column)))];
  const widths = columns.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const lines = table.map((line) => line.map((text, i) => (i < 2 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join("  "));
  return [
    "Summary (peers decline at the knowledge agent's dev correct-\"I don't know\" rate; top1_same_rate: a peer's top-1 at the",
    "agent's correct-\"I don't know\" rate over all questions, its threshold chosen on them all; help-search: its first result and first five)",
    ...lines,
  ].join("\n");
}
