// Results of a bench run: the JSON rows (a fixed format other tools read), a Markdown table, and the
// verdict against the targets, printed for a reader and never asserted.
import type { ImportMeasurement } from "./imports.ts";
import type { ExportMeasurement } from "./inbox.ts";
import { HELP_SCENARIOS, type ScenarioName } from "./scenarios.ts";
import { VOICE_P99_TARGET_MS, type VoiceMeasurement } from "./voice.ts";

/** One row of bench/results/latest.json. */
export interface ResultRow {
  scenario: ScenarioName;
  articles: number;
  concurrency: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  baseline_rps: number;
  /** App requests/s divided by baseline requests/s; null when the baseline answered nothing in time. */
  ratio: number | null;
  /** Peak resident memory of the app's process tree during this measurement. */
  rss_mb: number;
}

/** A row with the baseline's own latencies and errors, for the table and the chart. */
export interface DetailedRow extends ResultRow {
  baseline_p50_ms: number;
  baseline_p99_ms: number;
  baseline_errors: number;
  /** CPU ms per request of the app's and the baseline's process trees (load.ts cpuMsPerRequest). */
  cpu_ms: number;
  baseline_cpu_ms: number;
  /** Response counts by status when something failed (app). */
  statuses?: Record<string, number>;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function toResultRow(row: DetailedRow): ResultRow {
  return {
    scenario: row.scenario,
    articles: row.articles,
    concurrency: row.concurrency,
    rps: round(row.rps, 1),
    p50_ms: round(row.p50_ms, 2),
    p99_ms: round(row.p99_ms, 2),
    errors: row.errors,
    baseline_rps: round(row.baseline_rps, 1),
    ratio: row.ratio === null ? null : round(row.ratio, 3),
    rss_mb: round(row.rss_mb, 1),
  };
}

export function markdownTable(rows: DetailedRow[]): string {
  const header =
    "| scenario | articles | conc. | app req/s | app p50 ms | app p99 ms | app errors | baseline req/s | baseline p50 ms | baseline p99 ms | ratio | app RSS MB | app CPU ms/req | baseline CPU ms/req |";
  const rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map(
    (row) =>
      `| ${row.scenario} | ${row.articles.toLocaleString("en-US")} | ${row.concurrency} | ${row.rps.toFixed(1)} | ${row.p50_ms.toFixed(2)} | ${row.p99_ms.toFixed(2)} | ${row.errors} | ${row.baseline_rps.toFixed(1)} | ${row.baseline_p50_ms.toFixed(2)} | ${row.baseline_p99_ms.toFixed(2)} | ${row.ratio === null ? "n/a" : row.ratio.toFixed(2)} | ${row.rss_mb.toFixed(0)} | ${row.cpu_ms.toFixed(3)} | ${row.baseline_cpu_ms.toFixed(3)} |`,
  );
  return [header, rule, ...lines].join("\n");
}

/** The voice step's levels: one row per engine setup and number of simultaneous sessions. */
export function voiceTable(voice: VoiceMeasurement): string {
  const header =
    "| setup | sessions | turns | failed | replies stopped | end of speech -> first audio p50 ms | p99 ms | speech_stopped p50 | transcript p50 | first text p50 | audio.start p50 | CPU s per audio s | above idle | bench CPU (cores) | holds |";
  const rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
  const ms = (value: number) => (Number.isNaN(value) ? "n/a" : value.toFixed(0));
  const cpu = (value: number) => (Number.isNaN(value) ? "n/a" : value.toFixed(3));
  const lines = voice.setups.flatMap((setup) =>
    setup.skipped
      ? [`| ${setup.setup} | skipped: ${setup.skipped} ||||||||||||||`]
      : setup.levels.map(
          (level) =>
            `| ${setup.setup} | ${level.sessions} | ${level.turns} | ${level.failures} | ${level.repliesStopped} | ${ms(level.p50Ms)} | ${ms(level.p99Ms)} | ${ms(level.speechStoppedMs)} | ${ms(level.transcriptMs)} | ${ms(level.textMs)} | ${ms(level.audioStartMs)} | ${cpu(level.cpuPerAudioSecond)} | ${cpu(level.voiceCpuPerAudioSecond)} | ${level.benchCpuShare.toFixed(2)} | ${level.holds ? "yes" : "no"} |`,
        ),
  );
  const notes = voice.setups.map((setup) =>
    setup.skipped
      ? `- ${setup.setup}: skipped (${setup.skipped})`
      : `- ${setup.setup} (${setup.engines}): holds ${setup.held} simultaneous session(s) on ${voice.cores} cores (tried up to ${setup.triedUpTo}); idle app ${cpu(setup.idleCpu)} CPU s per s; app process tree peak RSS ${setup.rssPeakMb.toFixed(0)} MB; load average ${setup.load.map((value) => value.toFixed(1)).join(" -> ")}; warm-up heard ${setup.heard.map((text) => JSON.stringify(text)).join(", ")}${setup.levels.some((level) => level.failures > 0) ? `; failures: ${setup.levels.flatMap((level) => level.failureTexts.map((text) => `${level.sessions} sessions: ${text}`)).join("; ")}` : ""}`,
  );
  return [header, rule, ...lines, "", ...notes].join("\n");
}

export interface Verdict {
  target: string;
  /** null: not measured in this run. */
  met: boolean | null;
  detail: string;
}

const RATIO_TARGET = 0.5;
const SEARCH_GROWTH_TARGET = 2;
const TURN_P99_TARGET_MS = 100;
const RSS_TARGET_MB = 300;
/** The inbox over a million messages, one person at a time (c=1): a search, and the list's first page. */
const INBOX_SEARCH_P99_TARGET_MS = 250;
const INBOX_LIST_P99_TARGET_MS = 100;
/**
 * Exporting the whole inbox is streamed: over its last three quarters (the first has warmed the
 * heap and buffers up) the app's memory grows by at most this much.
 */
const INBOX_EXPORT_RSS_GROWTH_TARGET_MB = 32;
/**
 * Importing 10,000 Markdown articles of about 100 KB from a zip, then knowledge turns to their
 * agent: minutes, not hours (within an import's time budget), with the app's memory flat over the
 * last three quarters of the import and the turns after it (the first quarter warms the heap and
 * buffers up).
 */
const IMPORT_TARGET_ARTICLES = 10_000;
const IMPORT_TARGET_SECONDS = 600;
const IMPORT_RSS_GROWTH_TARGET_MB = 32;
/** The inbox targets hold over this many messages; a smaller inbox (a quick run) gets no verdict. */
const INBOX_TARGET_MESSAGES = 1_000_000;

export function verdicts(
  rows: DetailedRow[],
  overallPeakRssMb: number,
  inboxExport?: ExportMeasurement,
  inboxMessages = INBOX_TARGET_MESSAGES,
  imported?: ImportMeasurement,
  voice?: VoiceMeasurement,
): Verdict[] {
  const find = (scenario: ScenarioName, articles: number, concurrency: number) =>
    rows.find((row) => row.scenario === scenario && row.articles === articles && row.concurrency === concurrency);
  const concurrencies = [...new Set(rows.map((row) => row.concurrency))];
  const result: Verdict[] = [];

  // Search p99 at 100k articles at most 2x its value at 1k.
  const growth: string[] = [];
  let growthMet: boolean | null = null;
  for (const scenario of ["search words", "search substring"] as const) {
    for (const concurrency of concurrencies) {
      const small = find(scenario, 1_000, concurrency);
      const large = find(scenario, 100_000, concurrency);
      if (!small || !large) continue;
      const factor = large.p99_ms / small.p99_ms;
      growthMet = (growthMet ?? true) && factor <= SEARCH_GROWTH_TARGET;
      growth.push(`${scenario} c=${concurrency}: ${small.p99_ms.toFixed(1)} -> ${large.p99_ms.toFixed(1)} ms (x${factor.toFixed(1)})`);
    }
  }
  result.push({
    target: `search p99 at 100k articles <= ${SEARCH_GROWTH_TARGET}x its value at 1k`,
    met: growthMet,
    detail: growth.join("; ") || "needs the 1k and 100k sizes",
  });

  // Every help scenario at least 0.35 of the baseline's throughput.
  const helpRows = rows.filter(
    (row): row is DetailedRow & { ratio: number } => HELP_SCENARIOS.includes(row.scenario) && row.ratio !== null,
  );
  const below = helpRows.filter((row) => row.ratio < RATIO_TARGET);
  const worst = [...helpRows].sort((a, b) => a.ratio - b.ratio)[0];
  result.push({
    target: `every help scenario >= ${RATIO_TARGET} of the baseline's throughput`,
    met: helpRows.length === 0 ? null : below.length === 0,
    detail:
      helpRows.length === 0
        ? "no help scenario measured"
        : below.length === 0
          ? `lowest ${worst!.ratio.toFixed(2)} (${worst!.scenario}, ${worst!.articles} articles, c=${worst!.concurrency})`
          : `${below.length} of ${helpRows.length} below: ${below.map((row) => `${row.scenario} ${row.articles}/c${row.concurrency} ${row.ratio.toFixed(2)}`).join(", ")}`,
  });

  // Knowledge-agent turns, one visitor at a time (c=1): p99 under 100 ms at 10k articles, and over
  // the eval's corpus with its real questions. Other concurrencies and the throughput ratio are
  // shown beside, not judged.
  const turnDetail = (row: DetailedRow) =>
    `c=${row.concurrency}: ${row.p99_ms.toFixed(1)} ms${row.ratio === null ? "" : `, ratio ${row.ratio.toFixed(2)}`}`;
  const turns = rows.filter((row) => row.scenario === "knowledge turn" && row.articles === 10_000);
  const singleTurns = turns.filter((row) => row.concurrency === 1);
  result.push({
    target: `knowledge turn p99 < ${TURN_P99_TARGET_MS} ms at 10k articles, c=1`,
    met: singleTurns.length === 0 ? null : singleTurns.every((row) => row.p99_ms < TURN_P99_TARGET_MS),
    detail: singleTurns.length === 0 ? "needs the 10k size at c=1" : turns.map(turnDetail).join("; "),
  });
  // The eval's agent sees its 170 articles whatever the size: every size's c=1 row is judged.
  const evalTurns = rows.filter((row) => row.scenario === "eval turns");
  const singleEvalTurns = evalTurns.filter((row) => row.concurrency === 1);
  result.push({
    target: `eval turns (the eval's 170 articles and questions) p99 < ${TURN_P99_TARGET_MS} ms at c=1`,
    met: singleEvalTurns.length === 0 ? null : singleEvalTurns.every((row) => row.p99_ms < TURN_P99_TARGET_MS),
    detail:
      singleEvalTurns.length === 0
        ? "eval turns not measured at c=1"
        : evalTurns.map((row) => `${row.articles.toLocaleString("en-US")} generated articles ${turnDetail(row)}`).join("; "),
  });

  // The inbox at a million messages.
  const fullInbox = inboxMessages === INBOX_TARGET_MESSAGES;
  const smallInbox = `measured over ${inboxMessages.toLocaleString("en-US")} messages only: `;
  for (const [scenario, limit] of [
    ["inbox search", INBOX_SEARCH_P99_TARGET_MS],
    ["inbox list", INBOX_LIST_P99_TARGET_MS],
  ] as const) {
    const measured = rows.filter((row) => row.scenario === scenario);
    const single = measured.filter((row) => row.concurrency === 1);
    const detail = measured.map((row) => `c=${row.concurrency}: ${row.p99_ms.toFixed(1)} ms`).join("; ");
    result.push({
      target: `${scenario} p99 < ${limit} ms at c=1 over 1M messages`,
      met: single.length === 0 || !fullInbox ? null : single.every((row) => row.p99_ms < limit),
      detail: !detail ? `${scenario} not measured` : fullInbox ? detail : smallInbox + detail,
    });
  }

  const exportDetail =
    inboxExport &&
    `${inboxExport.rows.toLocaleString("en-US")} rows, ${inboxExport.megabytes.toFixed(0)} MB of CSV in ${inboxExport.seconds.toFixed(1)} s; RSS ${inboxExport.rssBeforeMb.toFixed(0)} MB before, ${inboxExport.rssQuarterMb.toFixed(0)} MB at a quarter, peak ${inboxExport.rssPeakMb.toFixed(0)} MB`;
  result.push({
    target: `inbox export of 1M messages: app RSS flat (< ${INBOX_EXPORT_RSS_GROWTH_TARGET_MB} MB more after the first quarter)`,
    met: inboxExport && fullInbox ? inboxExport.rssPeakMb - inboxExport.rssQuarterMb < INBOX_EXPORT_RSS_GROWTH_TARGET_MB : null,
    detail: !exportDetail ? "inbox not loaded" : fullInbox ? exportDetail : smallInbox + exportDetail,
  });

  // The import of 10k articles.
  const importDetail =
    imported &&
    `${imported.created.toLocaleString("en-US")} created, ${imported.failed} failed (${imported.status}) from a ${imported.zipMegabytes.toFixed(1)} MB zip in ${imported.seconds.toFixed(1)} s; RSS ${imported.rssBeforeMb.toFixed(0)} MB before, ${imported.rssQuarterMb.toFixed(0)} MB at a quarter, peak ${imported.rssPeakMb.toFixed(0)} MB; then ${imported.turns} knowledge turns to their agent, ${imported.turnErrors} not answered 200, peak ${imported.rssAfterTurnsMb.toFixed(0)} MB`;
  const fullImport = imported?.articles === IMPORT_TARGET_ARTICLES;
  result.push({
    target: `import of 10k Markdown articles of ~100 KB from a zip, then knowledge turns: done in < ${IMPORT_TARGET_SECONDS} s, every turn answered, app RSS flat (< ${IMPORT_RSS_GROWTH_TARGET_MB} MB more after the first quarter)`,
    met:
      imported && fullImport
        ? imported.status === "done" &&
          imported.created === imported.articles &&
          imported.seconds < IMPORT_TARGET_SECONDS &&
          imported.turnErrors === 0 &&
          imported.rssAfterTurnsMb - imported.rssQuarterMb < IMPORT_RSS_GROWTH_TARGET_MB
        : null,
    detail: !importDetail
      ? "not run (a run of chosen scenarios skips it)"
      : fullImport
        ? importDetail
        : `${imported?.articles} articles only: ${importDetail}`,
  });

  // Voice: one visitor's wait for the reply to start, per engine setup; the sessions held beside it.
  for (const setup of voice?.setups ?? []) {
    const single = setup.levels.find((level) => level.sessions === 1);
    const detail = single
      ? `1 session: p50 ${single.p50Ms.toFixed(0)} ms, p99 ${single.p99Ms.toFixed(0)} ms over ${single.turns} turns (${single.failures} failed), CPU ${single.cpuPerAudioSecond.toFixed(3)} s per audio s (${Number.isNaN(single.voiceCpuPerAudioSecond) ? "idle not measured" : `${single.voiceCpuPerAudioSecond.toFixed(3)} above idle`}); holds ${setup.held} simultaneous session(s) on ${voice!.cores} cores (tried up to ${setup.triedUpTo})`
      : (setup.skipped ?? "not measured");
    result.push({
      target: `voice, ${setup.setup} engines: p99 from the end of speech to the first reply audio byte < ${VOICE_P99_TARGET_MS} ms with one session`,
      met: !single || voice!.quick ? null : single.holds,
      detail: voice!.quick && single ? `quick run (one turn a session, too few for a p99): ${detail}` : detail,
    });
  }

  // Zero errors.
  const failing = rows.filter((row) => row.errors > 0);
  result.push({
    target: "zero errors",
    met: rows.length === 0 ? null : failing.length === 0,
    detail:
      failing.length === 0
        ? `${rows.length} measurements, none failed`
        : failing
            .map((row) => `${row.scenario} ${row.articles}/c${row.concurrency}: ${row.errors} ${JSON.stringify(row.statuses ?? {})}`)
            .join("; "),
  });

  // App RSS under 400 MB.
  result.push({
    target: `app RSS < ${RSS_TARGET_MB} MB`,
    met: rows.length === 0 ? null : overallPeakRssMb < RSS_TARGET_MB,
    detail: `peak ${overallPeakRssMb.toFixed(0)} MB (process tree, sampled every 100 ms)`,
  });
  return result;
}

export function formatVerdicts(list: Verdict[]): string {
  const mark = (met: boolean | null) => (met === null ? "n/a " : met ? "MET " : "MISS");
  return list.map((verdict) => `${mark(verdict.met)}  ${verdict.target}: ${verdict.detail}`).join("\n");
}
