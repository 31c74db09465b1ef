// `npm run eval`: every labelled question of every corpus (eval/corpora/*) through the real turn
// path (runTurn, as the HTTP API runs it after authentication), each corpus on a fresh database;
// beside it the same questions through two peer libraries and the help centre's search. Prints
// each corpus apart and their mean, and writes eval/results/latest.json (and latest-by-type.json).
// See eval/README.md.
//
//   npm run eval                          all corpora, all questions, the knowledge engine (and the
//                                         LLM engine when LLM_BASE_URL and LLM_MODEL are set)
//   npm run eval -- --corpus zulip        one corpus (a run of one corpus, one split, one engine or
//                                         with embeddings writes nothing)
//   npm run eval -- --split dev           only the dev questions (test: only the held-back ones)
//   npm run eval -- --slice 80            a deterministic slice of 80 questions a corpus (writes nothing)
//   npm run eval -- --engine knowledge    one engine
//   npm run eval -- --verbose             every failed question, with the reply
//   npm run eval -- --check               the CI guard: each corpus's baseline slice against eval/baseline.json
//   npm run eval -- --update-baseline     measure the baseline's slices and write eval/baseline.json
//   EMBEDDINGS_BASE_URL=... EMBEDDINGS_MODEL=... npm run eval
//                                         with semantic retrieval through that endpoint
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { configureLogging } from "@parley/core";
import { llmConfigFrom, llmSettingsSchema } from "@parley/core/engine";
import { embeddingsConfigFrom, embeddingsSettingsSchema, type SemanticSearch } from "@parley/core/knowledge";
import { parseEnvWith } from "@parley/db";
import { createTestContext } from "@parley/testing/context";
import {
  type EngineName,
  loadArticles,
  loadCollections,
  loadCorpus,
  loadQuestions,
  SPLITS,
  type Split,
  type SplitQuestion,
  sliceOf,
} from "@parley/testing/eval-corpus";
import { type Baseline, baselineFigures, compareWithBaseline } from "./baseline.ts";
import { type CorpusFolder, listCorpora } from "./data.ts";
import { engineOutcomes, helpSearchFigures, peerOutcomes } from "./evaluate.ts";
import { type Outcome, summarize } from "./metrics.ts";
import { PEERS } from "./peers.ts";
import { breakdown, type CorpusResult, failureLines, formatSummary, formatTable, resultRows } from "./report.ts";
import { embedCorpus, evalSemanticSearch } from "./semantic.ts";

configureLogging({ level: "warn" }); // one "message turn" info line per question would drown the table

const evalDir = path.join(import.meta.dirname, "..");
const resultsDir = path.join(evalDir, "results");
const baselinePath = path.join(evalDir, "baseline.json");

const { values: args } = parseArgs({
  options: {
    corpus: { type: "string" },
    split: { type: "string", default: "all" },
    slice: { type: "string" },
    engine: { type: "string" },
    verbose: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    "update-baseline": { type: "boolean", default: false },
  },
});

async function main(): Promise<number> {
  const llm = llmConfigFrom(parseEnvWith(llmSettingsSchema, process.env));
  const guard = args.check || args["update-baseline"];
  const baseline = guard ? (JSON.parse(readFileSync(baselinePath, "utf8")) as Baseline) : undefined;
  const splits = guard ? SPLITS : parseSplit(args.split);
  const sliceSize = baseline ? baseline.slice : args.slice ? Number(args.slice) : undefined;
  if (sliceSize !== undefined && !(Number.isInteger(sliceSize) && sliceSize > 0)) throw new Error("--slice takes a positive whole number");
  const engines: EngineName[] = guard ? ["knowledge"] : parseEngines(args.engine, llm !== undefined);
  const corpora = pickCorpora(args.corpus);
  // The CI guard's baseline is the default, lexical retrieval: it ignores an embeddings endpoint.
  const embeddings = guard ? undefined : embeddingsConfigFrom(parseEnvWith(embeddingsSettingsSchema, process.env));

  const results: CorpusResult[] = [];
  for (const corpus of corpora) {
    const all = loadQuestions(corpus.questionsDir, splits);
    const questions = sliceSize ? sliceOf(all, sliceSize) : all;
    results.push(await evaluateCorpus(corpus, questions, engines, { llm, embeddings, peers: !guard }));
  }
  console.log(`\n${formatSummary(results)}`);

  if (baseline) {
    const measured = Object.fromEntries(
      results.map((result) => [result.corpus, baselineFigures(summarize(result.engines.get("knowledge")!))]),
    );
    if (args["update-baseline"]) {
      writeFileSync(
        baselinePath,
        `${JSON.stringify({ slice: baseline.slice, tolerance: baseline.tolerance, corpora: measured }, null, 2)}\n`,
      );
      console.log(`\nWrote ${path.relative(process.cwd(), baselinePath)}.`);
      return 0;
    }
    const verdict = compareWithBaseline(baseline, measured);
    console.log(`\n${verdict.lines.join("\n")}`);
    return verdict.ok ? 0 : 1;
  }
  // The committed figures are a full run's: every corpus, both splits, the default retrieval.
  if (!sliceSize && !args.corpus && splits.length === SPLITS.length && !embeddings && args.engine === undefined) writeResults(results);
  return 0;
}

async function evaluateCorpus(
  corpus: CorpusFolder,
  questions: SplitQuestion[],
  engines: EngineName[],
  options: { llm: ReturnType<typeof llmConfigFrom>; embeddings: ReturnType<typeof embeddingsConfigFrom>; peers: boolean },
): Promise<CorpusResult> {
  let semantic: SemanticSearch | undefined;
  const { embeddings } = options;
  const ctx = await createTestContext({
    llm: options.llm,
    semantic: embeddings && ((db) => (semantic = evalSemanticSearch(db, embeddings))),
  });
  try {
    const setupStart = performance.now();
    const articles = loadArticles(corpus.corpusDir);
    await loadCorpus(ctx.db, loadCollections(corpus.corpusDir), articles);
    console.log(
      `\n## ${corpus.name}: ${articles.length} articles, ${questions.length} questions. ` +
        `Database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite in memory"}, ready in ${Math.round(performance.now() - setupStart)} ms.`,
    );
    console.log(semantic ? await embedCorpus(ctx.db, semantic) : "Retrieval: lexical (no EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL).");

    const result: CorpusResult = { corpus: corpus.name, engines: new Map(), peers: new Map() };
    for (const engine of engines) result.engines.set(engine, await engineOutcomes(ctx, engine, questions));
    const knowledge = result.engines.get("knowledge");
    // A peer's threshold is chosen on the dev questions: without them there is no peer row.
    if (options.peers && knowledge && questions.some((question) => question.split === "dev")) {
      for (const peer of PEERS) result.peers.set(peer, peerOutcomes(peer, articles, questions, knowledge));
      result.helpSearch = await helpSearchFigures(ctx, questions);
    }
    for (const [engine, outcomes] of result.engines) printEngine(`${corpus.name}, ${engine} engine`, outcomes);
    return result;
  } finally {
    await ctx.close();
  }
}

function printEngine(title: string, outcomes: Outcome[]): void {
  console.log(`\n${title}`);
  const languages = new Set(outcomes.map((outcome) => outcome.question.language));
  if (languages.size > 1)
    console.log(
      formatTable(
        breakdown(outcomes, (outcome) => outcome.question.language),
        "language",
      ),
    );
  console.log(
    formatTable(
      breakdown(outcomes, (outcome) => outcome.question.type),
      "type",
    ),
  );
  console.log(
    formatTable(
      breakdown(outcomes, (outcome) => (outcome.question as SplitQuestion).split),
      "split",
    ),
  );
  if (args.verbose) console.log(failureLines(outcomes).join("\n"));
}

function pickCorpora(name: string | undefined): CorpusFolder[] {
  const corpora = listCorpora();
  if (name === undefined) return corpora;
  const corpus = corpora.find((candidate) => candidate.name === name);
  if (!corpus) throw new Error(`--corpus takes one of: ${corpora.map((candidate) => candidate.name).join(", ")}`);
  return [corpus];
}

function parseSplit(value: string | undefined): Split[] {
  if (value === "all") return [...SPLITS];
  if (value === "dev" || value === "test") return [value];
  throw new Error("--split takes dev, test or all");
}

function parseEngines(value: string | undefined, llmConfigured: boolean): EngineName[] {
  if (value === undefined) return llmConfigured ? ["knowledge", "llm"] : ["knowledge"];
  if (value === "knowledge") return ["knowledge"];
  if (value === "llm") {
    if (!llmConfigured) throw new Error("--engine llm needs LLM_BASE_URL and LLM_MODEL");
    return ["llm"];
  }
  throw new Error("--engine takes knowledge or llm");
}

function writeResults(results: CorpusResult[]): void {
  const { byLanguage, byType } = resultRows(results);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, "latest.json"), `${JSON.stringify(byLanguage, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, "latest-by-type.json"), `${JSON.stringify(byType, null, 2)}\n`);
  console.log(`\nWrote eval/results/latest.json and eval/results/latest-by-type.json.`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
