// The import step: a .zip of long Markdown articles (about 100 KB each) uploaded to the running app
// as the panel does, and imported by the app's worker into a source of an agent of its own, then
// knowledge turns to that agent; their time and what they did to the app's memory. The zip is read
// as a stream and each article written on its own; the agent's text is far over the in-process
// index's budget, so its turns are answered from the database search: the resident size should
// stay flat throughout.
import type { Database } from "@parley/db";
import type { RssSampler } from "@parley/testing/processes";
import { strToU8, zipSync } from "fflate";
import { benchKey } from "./data.ts";

export interface ImportMeasurement {
  articles: number;
  zipMegabytes: number;
  seconds: number;
  status: string;
  created: number;
  failed: number;
  rssBeforeMb: number;
  /** The app's peak once a quarter of the articles were imported (buffers and heap warmed up). */
  rssQuarterMb: number;
  rssPeakMb: number;
  /** Knowledge turns to the agent of the imported articles afterwards, and those not answered 200. */
  turns: number;
  turnErrors: number;
  /** The app's peak over the import and the turns after it. */
  rssAfterTurnsMb: number;
}

const SOURCE_ID = "bench_import_source";
const AGENT_ID = "bench_import_agent";
const PARAGRAPH = "Open **Settings**, choose _Billing_ and follow the steps. Refunds take five working days. ";
/** Each article's body: about 100 KB. */
const ARTICLE_PARAGRAPHS = 1_100;
const TURNS = 50;
const QUESTIONS = ["How do I follow the billing steps?", "How long do refunds take?", "Where are the settings for imported article 42?"];

function benchZip(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let n = 0; n < count; n++) {
    files[`articles/bench-import-${n}.md`] = strToU8(
      `---\ntitle: Imported article ${n}\npublished: true\n---\n\n## Steps\n\n${PARAGRAPH.repeat(ARTICLE_PARAGRAPHS)}\n`,
    );
  }
  return zipSync(files, { level: 6 });
}

export async function measureImport(
  appUrl: string,
  cookie: string,
  db: Database,
  sampler: RssSampler,
  count: number,
): Promise<ImportMeasurement> {
  await db.query(
    `INSERT INTO "Source" (id, "workspaceId", name, active, "updatedAt") VALUES ($1, 'bench_workspace', 'Bench import', true, now()) ON CONFLICT (id) DO NOTHING`,
    [SOURCE_ID],
  );
  const { apiKey, keyHash } = benchKey("parley-bench-import");
  await db.query(
    `INSERT INTO "Agent" (id, "workspaceId", name, active, "httpApiEnabled", "keyHash", "keyLast4", "keyCreatedAt", engine, "updatedAt")
     VALUES ($1, 'bench_workspace', 'Bench import agent', true, true, $2, $3, now(), 'knowledge', now()) ON CONFLICT (id) DO NOTHING`,
    [AGENT_ID, keyHash, apiKey.slice(-4)],
  );
  await db.query(`INSERT INTO "AgentSource" ("agentId", "sourceId") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [AGENT_ID, SOURCE_ID]);
  const zip = benchZip(count);
  sampler.resetPeak();
  const rssBeforeMb = sampler.peakMb();
  const started = performance.now();
  const response = await upload(`${appUrl}/api/panel/imports?sourceId=${SOURCE_ID}&kind=markdown_zip`, {
    method: "POST",
    headers: { cookie, origin: appUrl, "content-type": "application/zip" },
    body: new Uint8Array(zip),
  });
  const json = (await response.json()) as { data?: { id: string } };
  if (response.status !== 202 || !json.data) throw new Error(`import upload answered ${response.status}: ${JSON.stringify(json)}`);
  let rssQuarterMb = 0;
  for (;;) {
    const [job] = await db.query<{ status: string; created: number; failed: number; processed: number }>(
      `SELECT status::text AS status, created, failed, processed FROM "ImportJob" WHERE id = $1`,
      [json.data.id],
    );
    if (rssQuarterMb === 0 && job && job.processed >= count / 4) rssQuarterMb = sampler.peakMb();
    if (job && (job.status === "done" || job.status === "failed")) {
      const seconds = (performance.now() - started) / 1000;
      const rssPeakMb = sampler.peakMb();
      const turnErrors = await knowledgeTurns(appUrl, apiKey);
      return {
        articles: count,
        zipMegabytes: zip.length / 1024 / 1024,
        seconds,
        status: job.status,
        created: job.created,
        failed: job.failed,
        rssBeforeMb,
        rssQuarterMb,
        rssPeakMb,
        turns: TURNS,
        turnErrors,
        rssAfterTurnsMb: sampler.peakMb(),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The upload, sent again once if the connection fails before an answer: building a large zip takes
 * longer than the server keeps an idle connection open, and fetch may reuse one it has just
 * closed (the server creates the job only once the whole body has arrived).
 */
async function upload(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** TURNS knowledge turns to the import's agent, one at a time; how many were not answered 200. */
async function knowledgeTurns(appUrl: string, apiKey: string): Promise<number> {
  let errors = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const response = await fetch(`${appUrl}/api/agent/${AGENT_ID}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ message: QUESTIONS[turn % QUESTIONS.length] }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) errors++;
  }
  return errors;
}
