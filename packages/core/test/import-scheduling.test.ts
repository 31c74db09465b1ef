// How the import worker shares its time, on a real database with a local HTTP server that answers
// fast, slowly or never: another workspace's import is not held up by a long one (on one instance
// or across two), an import ends when its time budget runs out (the rest reported, not fetched),
// a URL import fetches a few pages at once and no more, in the list's order, and a claim holds
// while its worker lives and passes on once its lease runs out.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportRunner, type ImportRunnerOptions } from "../src/knowledge/imports/runner.ts";
import { importsTask } from "../src/knowledge/imports/task.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";
import { scheduleTask } from "../src/platform/scheduler/task.ts";

let db: TestDatabase;
let server: Server;
let base: string;
const sockets = new Set<Socket>();
/** /slow/ requests being answered right now, and the most there ever were at once. */
const load = { now: 0, max: 0 };
let sourceCount = 0;

const page = (title: string) => `<html><head><title>${title}</title></head><body><main><p>About ${title}.</p></main></body></html>`;

beforeAll(async () => {
  db = await createTestDatabase();
  for (const id of ["ws-a", "ws-b", "ws-c", "ws-d"]) {
    await db.prisma.workspace.create({ data: { id, name: id } });
    await db.prisma.user.create({ data: { id: `user-${id}`, workspaceId: id, email: `${id}@example.com`, passwordHash: "x" } });
  }
  // /hang/*: never answers. /slow/N/*: answers after N ms. /page/*: answers at once.
  // /hops/N/*: redirects N times, each after 1.1 s, then answers.
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const [, kind, arg, ...rest] = url.pathname.split("/");
    if (kind === "hang") return;
    if (kind === "hops" && Number(arg) > 0) {
      setTimeout(() => res.writeHead(302, { location: `/hops/${Number(arg) - 1}/${rest.join("/")}` }).end(), 1_100);
      return;
    }
    const slow = kind === "slow";
    if (slow) load.max = Math.max(load.max, ++load.now);
    setTimeout(
      () => {
        if (slow) load.now--;
        res.writeHead(200, { "content-type": "text/html" }).end(page(url.pathname));
      },
      slow ? Number(arg) : 0,
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

async function queueImport(workspaceId: string, urls: string[]): Promise<string> {
  const source = await db.prisma.source.create({ data: { workspaceId, name: `Imported ${++sourceCount}` } });
  const job = await db.prisma.importJob.create({
    data: { sourceId: source.id, kind: "urls", createdById: `user-${workspaceId}`, payload: strToU8(urls.join("\n")) },
  });
  return job.id;
}

const jobOf = (id: string) => db.prisma.importJob.findUniqueOrThrow({ where: { id } });

function runner(options: Partial<ImportRunnerOptions> = {}): ImportRunner {
  return new ImportRunner({ db, allowLocal: true, pollIntervalMs: 20, ...options });
}

async function until(predicate: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const isDone = (id: string) => async () => (await jobOf(id)).status === "done";
const hanging = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${base}/hang/${tag}-${i}`);

describe("sharing the worker between workspaces", () => {
  it("finishes a one-page import of workspace B while workspace A's import of never-answering URLs runs", async () => {
    const slow = await queueImport("ws-a", hanging(6, "fair"));
    const quick = await queueImport("ws-b", [`${base}/page/quick`]);
    const instance = runner({ budgetMs: 8_000, fetchTimeoutMs: 6_000 });
    const running = instance.run();
    await until(isDone(quick), 5_000);
    expect(await jobOf(quick)).toMatchObject({ status: "done", created: 1, failed: 0 });
    expect((await jobOf(slow)).status).toBe("running");
    await running;
    expect(await jobOf(slow)).toMatchObject({ status: "done", failed: 6 });
  });

  it("runs one import per workspace at a time across instances, so B's import does not wait behind A's second", async () => {
    const first = await queueImport("ws-a", hanging(2, "first"));
    const second = await queueImport("ws-a", hanging(2, "second"));
    const quick = await queueImport("ws-b", [`${base}/page/across`]);
    const options = { budgetMs: 5_000, fetchTimeoutMs: 4_000, jobsAtOnce: 1 };
    const instances = [runner(options), runner(options)];
    const running = Promise.all(instances.map((instance) => instance.run()));
    await until(isDone(quick), 4_000);
    expect((await jobOf(first)).status).toBe("running");
    expect((await jobOf(second)).status).toBe("queued");
    await running;
    expect(await jobOf(first)).toMatchObject({ status: "done", failed: 2 });
    expect(await jobOf(second)).toMatchObject({ status: "done", failed: 2 });
    const [a, b] = [await jobOf(first), await jobOf(second)];
    // The second of A's imports started only once the first had ended.
    expect(b.startedAt?.getTime()).toBeGreaterThanOrEqual(a.finishedAt?.getTime() ?? Number.POSITIVE_INFINITY);
  });

  it("starts the waiting import of the workspace served longest ago first, not simply the oldest", async () => {
    const a1 = await queueImport("ws-c", [`${base}/page/served-a1`]);
    const a2 = await queueImport("ws-c", [`${base}/page/served-a2`]);
    const b1 = await queueImport("ws-d", [`${base}/page/served-b1`]);
    await runner({ jobsAtOnce: 1 }).run();
    const [first, second, third] = await Promise.all([jobOf(a1), jobOf(a2), jobOf(b1)]);
    expect([first.status, second.status, third.status]).toEqual(["done", "done", "done"]);
    const order = [first, second, third].sort((x, y) => (x.startedAt?.getTime() ?? 0) - (y.startedAt?.getTime() ?? 0));
    expect(order.map((job) => job.id)).toEqual([a1, b1, a2]);
  });
});

describe("an import's time budget", () => {
  it("ends the job when its time runs out, reporting the URLs it did not fetch", async () => {
    const urls = [
      `${base}/page/budget-1`,
      `${base}/hang/budget-2`,
      `${base}/hang/budget-3`,
      `${base}/page/budget-4`,
      `${base}/page/budget-5`,
    ];
    const id = await queueImport("ws-a", urls);
    const started = Date.now();
    await runner({ budgetMs: 1_500, fetchTimeoutMs: 10_000, fetchConcurrency: 2 }).run();
    // Well before the 10 s a fetch may take: the budget, not the pages, ended it.
    expect(Date.now() - started).toBeLessThan(8_000);
    const notFetched = "Not fetched: the import ran out of time (its limit is 1.5 s); import this URL again";
    const job = await jobOf(id);
    expect(job).toMatchObject({ status: "done", error: null, payload: null, total: 5, processed: 5, created: 1, failed: 4 });
    expect(job.report).toEqual([
      { item: urls[0], outcome: "created", articleId: expect.any(String) },
      { item: urls[1], outcome: "failed", reason: notFetched },
      { item: urls[2], outcome: "failed", reason: notFetched },
      { item: urls[3], outcome: "failed", reason: notFetched },
      { item: urls[4], outcome: "failed", reason: notFetched },
    ]);
  });
  it("reports the items of other kinds left when the time is out as not imported", async () => {
    const source = await db.prisma.source.create({ data: { workspaceId: "ws-b", name: `Imported ${++sourceCount}` } });
    const articles = ["Refunds", "Returns"].map((title, i) => ({
      id: i + 1,
      html_url: `https://help.example.com/${i + 1}`,
      title,
      body: "<p>Text</p>",
    }));
    const payload = strToU8(JSON.stringify({ articles }));
    const job = await db.prisma.importJob.create({ data: { sourceId: source.id, kind: "zendesk", createdById: "user-ws-b", payload } });
    await runner({ budgetMs: 0 }).run();
    const reason = "Not imported: the import ran out of time (its limit is 0 s); import it again";
    expect(await jobOf(job.id)).toMatchObject({
      status: "done",
      created: 0,
      failed: 2,
      report: articles.map((article) => ({ item: `Zendesk article ${article.id}`, outcome: "failed", reason })),
    });
  });
});

describe("fetching a URL import's pages", () => {
  it("fetches up to the limit at once, never more, and reports in the list's order", async () => {
    // The later pages answer sooner, so a report in order of arrival would come out reversed.
    const urls = Array.from({ length: 9 }, (_, i) => `${base}/slow/${(9 - i) * 40}/order-${i}`);
    const id = await queueImport("ws-b", urls);
    load.max = 0;
    await runner({ fetchConcurrency: 3 }).run();
    expect(load.max).toBe(3);
    const job = await jobOf(id);
    expect(job).toMatchObject({ status: "done", created: 9 });
    expect((job.report as Array<{ item: string }>).map((entry) => entry.item)).toEqual(urls);
  });

  it("gives one page a single timeout, its redirects included", async () => {
    // Each redirect within the page's 3 s; two of them (2.2 s, with room for a busy machine) too,
    // three (3.3 s) not.
    const urls = [`${base}/hops/2/within`, `${base}/hops/3/beyond`];
    const id = await queueImport("ws-b", urls);
    await runner({ fetchTimeoutMs: 3_000 }).run();
    expect((await jobOf(id)).report).toEqual([
      { item: urls[0], outcome: "created", articleId: expect.any(String) },
      { item: urls[1], outcome: "failed", reason: "Timed out after 3 s" },
    ]);
  });
});

describe("claims and leases", () => {
  it("keeps renewing the lease of a running import, so another instance does not take it over", async () => {
    const id = await queueImport("ws-a", hanging(2, "lease"));
    const options = { leaseMs: 600, budgetMs: 3_000, fetchTimeoutMs: 2_400, fetchConcurrency: 1 };
    const holder = runner(options).run();
    await until(async () => (await jobOf(id)).status === "running", 2_000);
    const { claimToken } = await jobOf(id);
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    await runner(options).run();
    expect((await jobOf(id)).claimToken).toBe(claimToken);
    await holder;
    expect(await jobOf(id)).toMatchObject({ status: "done", failed: 2 });
  });

  it("takes over an import whose instance died once its lease has run out, not before", async () => {
    const id = await queueImport("ws-b", [`${base}/page/crashed`]);
    const lockedUntil = new Date(Date.now() + 60_000);
    await db.prisma.importJob.update({
      where: { id },
      data: { status: "running", claimToken: "dead", lockedUntil, startedAt: new Date() },
    });
    await runner().run();
    expect(await jobOf(id)).toMatchObject({ status: "running", claimToken: "dead" });
    await db.prisma.importJob.update({ where: { id }, data: { lockedUntil: new Date(Date.now() - 1) } });
    await runner().run();
    expect(await jobOf(id)).toMatchObject({ status: "done", created: 1, claimToken: null });
  });
});

describe("on the scheduler", () => {
  it("lets the other tasks go on while an import waits, and hands the import back when the scheduler stops", async () => {
    const id = await queueImport("ws-a", hanging(8, "loop"));
    let passes = 0;
    const other = { name: "other", run: async () => void passes++ };
    const imports = runner({ fetchTimeoutMs: 400, fetchConcurrency: 1 });
    const scheduler = new Scheduler({ db })
      .add(importsTask(imports, 20))
      .add(scheduleTask(other, { intervalMs: 20 }))
      .start();
    await until(async () => (await jobOf(id)).status === "running", 2_000);
    const before = passes;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(passes).toBeGreaterThan(before + 3);
    await scheduler.stop();
    expect(await jobOf(id)).toMatchObject({ status: "queued", claimToken: null, lockedUntil: null, finishedAt: null });
  });
});
