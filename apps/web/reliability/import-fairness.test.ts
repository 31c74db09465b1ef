// Article imports shared fairly on real app processes (two instances of one deployment on
// PostgreSQL): while workspace A has two imports of pages that never answer queued, workspace B's
// one-page import finishes within seconds, A's first import runs on one instance and A's second
// waits for it instead of taking the other instance's slot. The pages come from a local HTTP
// server (WEBHOOKS_ALLOW_LOCAL lets the SSRF guard reach it).
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { sleep } from "./support/http.ts";

const cluster = setUpTwoAppCluster("imports", { WEBHOOKS_ALLOW_LOCAL: "true" });

let server: Server;
let base: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  // /hang/*: never answers; anything else: a small page at once.
  server = createServer((req, res) => {
    if (req.url?.startsWith("/hang/")) return;
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(`<html><head><title>Page ${req.url}</title></head><body><p>Text.</p></body></html>`);
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
});

async function queueImport(workspaceId: string, urls: string[]): Promise<string> {
  const source = await cluster.db.prisma.source.create({ data: { workspaceId, name: `Import ${urls[0]}` } });
  const job = await cluster.db.prisma.importJob.create({
    data: { sourceId: source.id, kind: "urls", payload: new TextEncoder().encode(urls.join("\n")) },
  });
  return job.id;
}

const statusOf = async (id: string) => (await cluster.db.prisma.importJob.findUniqueOrThrow({ where: { id } })).status;

it("finishes workspace B's one-page import while workspace A's never-answering imports hold no more than one slot", async () => {
  await cluster.db.prisma.workspace.create({ data: { id: "ws-imports-b", name: "Imports B" } });
  const hanging = (tag: string) => Array.from({ length: 6 }, (_, i) => `${base}/hang/${tag}-${i}`);
  const first = await queueImport("ws-demo", hanging("first"));
  const second = await queueImport("ws-demo", hanging("second"));
  const quick = await queueImport("ws-imports-b", [`${base}/page/quick`]);
  const started = Date.now();
  while ((await statusOf(quick)) !== "done") {
    if (Date.now() - started > 10_000) throw new Error(`B's import is still ${await statusOf(quick)} after 10 s`);
    await sleep(100);
  }
  expect(await cluster.db.prisma.importJob.findUniqueOrThrow({ where: { id: quick } })).toMatchObject({ created: 1, failed: 0 });
  expect(await statusOf(first)).toBe("running");
  expect(await statusOf(second)).toBe("queued");
});
