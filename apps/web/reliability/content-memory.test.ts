// Content, however large, never takes the process down. A help centre of ~120 MB of article text
// (40 long articles imported through the panel's zip import, 1,200 more written in bulk) used to
// exhaust the production heap (256 MB) on the agent's first knowledge turn, and again on every
// start, while the start-up warmed the agent's index. Now the agent's text is measured against
// the instance's index budget first: it is answered from the database search, the log says so
// once, the process stays up through a turn and a restart, and stays within the instance's memory
// budget (300 MB resident).
import { ARTICLE_CONTENT_MAX_CHARS } from "@parley/core/limits";
import { residentKb } from "@parley/testing/processes";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppInstance, printLogsOnFailure, redisUrl, startApp } from "./support/apps.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  appDatabaseUrl,
  createAgent,
  createSeededDatabase,
  type ServerDatabase,
  type TestAgent,
} from "./support/database.ts";
import { request, sendTurn, signIn, sleep } from "./support/http.ts";

const BULK_ARTICLES = 1_200;
const IMPORTED_ARTICLES = 40;
const ARTICLE_CHARS = 99_000;

let db: ServerDatabase;
let app: AppInstance;
let agent: TestAgent;
const env = () => ({ DATABASE_URL: appDatabaseUrl(db.url, "parley-content-memory"), REDIS_URL: redisUrl() });

/** ~`chars` characters of words (a different mix for each `seed`). */
function words(chars: number, seed: number): string {
  const vocabulary = [
    "account",
    "billing",
    "browser",
    "calendar",
    "channel",
    "contact",
    "device",
    "domain",
    "export",
    "folder",
    "invoice",
    "mailbox",
  ];
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i += 1) {
    const word = vocabulary[(seed * 7 + i * 13) % vocabulary.length]!;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ");
}

async function importZip(cookie: string): Promise<{ status: string; created: number; failed: number }> {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < IMPORTED_ARTICLES; i += 1) {
    files[`guide-${i}.md`] = new TextEncoder().encode(
      `---\ntitle: Imported guide ${i}\npublished: true\n---\n\n${words(ARTICLE_CHARS, i)}\n`,
    );
  }
  files["too-long.md"] = new TextEncoder().encode(
    `---\ntitle: Too long\npublished: true\n---\n\n${words(ARTICLE_CONTENT_MAX_CHARS + 5_000, 99)}\n`,
  );
  const response = await fetch(`${app.url}/api/panel/imports?sourceId=src-start&kind=markdown_zip`, {
    method: "POST",
    headers: { cookie, origin: app.url, "content-type": "application/zip" },
    body: new Uint8Array(zipSync(files, { level: 6 })),
  });
  const json = (await response.json()) as { data?: { id: string } };
  expect(response.status).toBe(202);
  for (let waited = 0; waited < 120_000; waited += 500) {
    const [job] = await db.query<{ status: string; created: number; failed: number }>(
      `SELECT status::text AS status, created, failed FROM "ImportJob" WHERE id = $1`,
      [json.data!.id],
    );
    if (job && (job.status === "done" || job.status === "failed")) return job;
    await sleep(500);
  }
  throw new Error("the import did not finish in 2 minutes");
}

beforeAll(async () => {
  db = await createSeededDatabase();
  app = await startApp({ name: "content-memory", env: env() });
  agent = await createAgent(db, "content");
}, 180_000);

printLogsOnFailure(() => (app ? [app] : []));

afterAll(async () => {
  await app?.stop();
  await db?.close();
});

describe("a help centre larger than the heap", () => {
  it("is imported, then answered from the database search without the process dying, through a restart", async () => {
    const cookie = await signIn(app.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const job = await importZip(cookie);
    // Every article within the size limit is created; the one over it is refused, not cut.
    expect(job).toEqual({ status: "done", created: IMPORTED_ARTICLES, failed: 1 });

    await db.query(
      `INSERT INTO "Article" ("id", "sourceId", "title", "slug", "content", "published", "updatedAt")
       SELECT 'bulk-' || g, 'src-start', 'Long guide ' || g, 'bulk-' || g,
         (SELECT string_agg((ARRAY['account','billing','browser','calendar','channel','contact','device','domain','export','folder','invoice','mailbox'])[1 + ((g * 7 + i * 13) % 12)], ' ')
          FROM generate_series(1, $2::int) i),
         true, now()
       FROM generate_series(1, $1::int) g`,
      [BULK_ARTICLES, Math.round(ARTICLE_CHARS / 8)],
    );

    const first = await sendTurn(app.url, agent, { message: "How do I reset my password?" });
    expect(first.status).toBe(200);
    expect(first.body.richContent[0].articles[0].id).toBe("art-reset-password");
    expect((await request(`${app.url}/api/health`)).status).toBe(200);
    expect(app.logTail(200)).toContain("knowledge index over its memory budget");
    const afterTurn = residentKb(app.pid) / 1024;

    // A start measures the agent's text before it reads any: it stays up past its warm-up.
    const port = app.port;
    await app.stop();
    app = await startApp({ name: "content-memory-restarted", env: env(), port });
    await sleep(5_000);
    expect((await request(`${app.url}/api/health`)).status).toBe(200);
    const again = await sendTurn(app.url, agent, { message: "Can I get a refund?" });
    expect(again.status).toBe(200);
    expect(again.body.richContent[0].articles[0].id).toBe("art-refunds");
    const afterRestart = residentKb(app.pid) / 1024;
    console.log(
      `content memory: ${BULK_ARTICLES + IMPORTED_ARTICLES} articles of ~${ARTICLE_CHARS.toLocaleString("en-US")} characters; resident ${afterTurn.toFixed(0)} MB after a turn, ${afterRestart.toFixed(0)} MB after a restart and a turn`,
    );
    expect(afterTurn).toBeLessThan(300);
    expect(afterRestart).toBeLessThan(300);
  });
});
