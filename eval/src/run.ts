// `npm run eval`: every labelled question through the real turn path (runTurn, as the HTTP API
// runs it after authentication), on a fresh database holding the evaluation corpus; prints the
// figures and writes eval/results/latest.json (and latest-by-type.json). See eval/README.md.
//
//   npm run eval                          all questions, the knowledge engine (and the LLM engine
//                                         when LLM_BASE_URL and LLM_MODEL are set)
//   npm run eval -- --split dev           only the dev questions (test: only the held-back ones)
//   npm run eval -- --slice 80            a deterministic slice of 80 questions (writes nothing)
//   npm run eval -- --engine knowledge    one engine
//   npm run eval -- --verbose             every failed question, with the reply
//   npm run eval -- --check               the CI guard: the baseline's slice against eval/baseline.json
//   npm run eval -- --update-baseline     measure the baseline's slice and write eval/baseline.json
//   EMBEDDINGS_BASE_URL=... EMBEDDINGS_MODEL=... npm run eval
//                                         with semantic retrieval through that endpoint
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { configureLogging } from "@parley/core";
import { runTurn } from "@parley/core/conversations";
import { llmConfigFrom, llmSettingsSchema } from "@parley/core/engine";
import { embeddingsConfigFrom, embeddingsSettingsSchema, type SemanticSearch } from "@parley/core/knowledge";
import { parseEnvWith } from "@parley/db";
import { createTestContext } from "@parley/testing/context";
import {
  type EngineName,
  evalAgent,
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
import { corpusDir, questionsDir } from "./data.ts";
import { type Figures, judge, type Outcome, readReply, summarize } from "./metrics.ts";
import { breakdown, failureLines, formatTable } from "./report.ts";
import { embedCorpus, evalSemanticSearch } from "./semantic.ts";

configureLogging({ level: "warn" }); // one "message turn" info line per question would drown the table

const evalDir = path.join(import.meta.dirname, "..");
const resultsDir = path.join(evalDir, "results");
const baselinePath = path.join(evalDir, "baseline.json");

const { values: args } = parseArgs({
  options: {
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
  const all = loadQuestions(questionsDir, splits);
  const sliceSize = baseline ? baseline.slice : args.slice ? Number(args.slice) : undefined;
  if (sliceSize !== undefined && !(Number.isInteger(sliceSize) && sliceSize > 0)) throw new Error("--slice takes a positive whole number");
  const questions = sliceSize ? sliceOf(all, sliceSize) : all;
  const engines: EngineName[] = guard ? ["knowledge"] : parseEngines(args.engine, llm !== undefined);

  // The CI guard's baseline is the default, lexical retrieval: it ignores an embeddings endpoint.
  const embeddings = guard ? undefined : embeddingsConfigFrom(parseEnvWith(embeddingsSettingsSchema, process.env));
  let semantic: SemanticSearch | undefined;
  const ctx = await createTestContext({ llm, semantic: embeddings && ((db) => (semantic = evalSemanticSearch(db, embeddings))) });
  try {
    const setupStart = performance.now();
    const articles = loadArticles(corpusDir);
    await loadCorpus(ctx.db, loadCollections(corpusDir), articles);
    console.log(
      `Corpus: ${articles.length} articles. Questions: ${questions.length} (${splits.join(" + ")}${sliceSize ? `, slice of ${sliceSize}` : ""}). ` +
        `Database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite in memory"}, ready in ${Math.round(performance.now() - setupStart)} ms.`,
    );
    console.log(semantic ? await embedCorpus(ctx.db, semantic) : "Retrieval: lexical (no EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL).");

    const outcomes = new Map<EngineName, Outcome[]>();
    for (const engine of engines) {
      const agent = evalAgent(engine);
      const results: Outcome[] = [];
      for (const question of questions) {
        let conversationId: string | undefined;
        for (const message of question.previous ?? []) {
          conversationId = (await runTurn(ctx, agent, { message, conversationId }, { channel: "api" })).conversationId;
        }
        const start = performance.now();
        const response = await runTurn(ctx, agent, { message: question.question, conversationId }, { channel: "api" });
        results.push(judge(question, readReply(response), performance.now() - start));
      }
      outcomes.set(engine, results);
    }

    for (const [engine, results] of outcomes) {
      console.log(`\n${engine} engine`);
      console.log(
        formatTable(
          breakdown(results, (outcome) => (outcome.question as SplitQuestion).language),
          "language",
        ),
      );
      console.log(
        formatTable(
          breakdown(results, (outcome) => outcome.question.type),
          "type",
        ),
      );
      console.log(
        formatTable(
          breakdown(results, (outcome) => (outcome.question as SplitQuestion).split),
          "split",
        ),
      );
      if (args.verbose) console.log(failureLines(results).join("\n"));
    }

    if (baseline) {
      const measured = baselineFigures(summarize(outcomes.get("knowledge")!));
      if (args["update-baseline"]) {
        writeFileSync(baselinePath, `${JSON.stringify({ ...baseline, figures: measured }, null, 2)}\n`);
        console.log(`\nWrote ${path.relative(process.cwd(), baselinePath)}.`);
        return 0;
      }
      const verdict = compareWithBaseline(baseline, measured);
      console.log(`\n${verdict.lines.join("\n")}`);
      return verdict.ok ? 0 : 1;
    }
    if (!sliceSize) writeResults(outcomes);
    return 0;
  } finally {
    await ctx.close();
  }
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

type Row<K extends string> = { engine: EngineName } & Record<K, string> & Figures;

function writeResults(outcomes: Map<EngineName, Outcome[]>): void {
  const byLanguage: Row<"language">[] = [];
  const byType: Row<"type">[] = [];
  for (const [engine, results] of outcomes) {
    byLanguage.push({ engine, language: "all", ...summarize(results) });
    for (const [language, figures] of breakdown(results, (outcome) => (outcome.question as SplitQuestion).language)) {
      if (language !== "all") byLanguage.push({ engine, language, ...figures });
    }
    for (const [type, figures] of breakdown(results, (outcome) => outcome.question.type)) {
      if (type !== "all") byType.push({ engine, type, ...figures });
    }
  }
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
