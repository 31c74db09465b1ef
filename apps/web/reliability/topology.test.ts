// The deployment topology of compose.yaml, on this machine's loopback: two production instances on
// one PostgreSQL database and one Redis, behind nginx running the repository's own
// deploy/nginx.conf (its upstreams and port replaced by the instances' on 127.0.0.1; the test adds
// only an X-Upstream response header, to see which instance answered). Under load through the
// balancer (API turns from several clients, help reads, a widget conversation over the balancer's
// WebSocket) the instance holding the widget's socket is killed with SIGKILL, then restarted.
// Asserted and printed: no acknowledged (200) turn is missing from the database; requests fail
// only in the failover window and only those the dead instance had taken (502, nginx never sends
// a POST twice); the widget reconnects through the balancer to the other instance and resumes the
// same conversation; the panel admin's reply (tRPC, through the balancer, on whichever instance)
// reaches the visitor over Redis; the restarted instance takes traffic again; the rate limits stay
// shared exactly: of one agent's help reads spread over both instances, then over the survivor,
// then over both again, exactly the limit pass and the rest get the spec's 429 with Retry-After.
//
// By default the instances are processes of the production build (`node apps/web/server.mjs`).
// With TOPOLOGY_IMAGE set they are containers of that image instead (podman, host networking
// only: every container listens on 127.0.0.1), after the image's one-shot `migrate`. Needs nginx
// on the PATH (and podman for TOPOLOGY_IMAGE); skipped with a message otherwise. Traffic stays on
// 127.0.0.1.
//
//   npm run test:topology      (DATABASE_URL and REDIS_URL as for the reliability suite)
//   podman build --format docker -t localhost/parley:local . && TOPOLOGY_IMAGE=localhost/parley:local npm run test:topology
//
// The image must be built from this tree: the test database is migrated from the tree's
// prisma/migrations, and the image's `migrate` refuses a database with migrations it lacks.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { HELP_REQUESTS_PER_MINUTE } from "@parley/core/limits";
import { freePort, tail } from "@parley/testing/processes";
import { type Receiver, startReceiver } from "@parley/testing/webhook-receiver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppInstance,
  type AppOptions,
  newAuthSecret,
  printLogsOnFailure,
  sharedStoresEnv,
  startApp,
  startContainer,
} from "./support/apps.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createAgent, createSeededDatabase, type ServerDatabase } from "./support/database.ts";
import { formatTally, type Outcome, request, signIn, sleep, tally, until } from "./support/http.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { openWidget, type WidgetPage } from "./support/widget.ts";

const PAGE_ORIGIN = "https://shop.example";
const CLIENTS = 4;
/** Raises every rate limit of the instances: several clients' turns a second on one agent for 20 s stay under its limit. */
const RATE_LIMIT_SCALE = 50;
/** The probe agent's help limit per client IP (the test's single address) as the instances apply it. */
const HELP_LIMIT = HELP_REQUESTS_PER_MINUTE * RATE_LIMIT_SCALE;
/** Help reads of the probe beyond its limit, while one instance is down and again after its restart. */
const PROBE_OVER_LIMIT = 20;
const PROBE_CONNECTIONS = 8;
/** The latest the probe starts into a minute of the clock, so that it ends within that minute. */
const PROBE_START_LATEST_MS = 15_000;

function nginxBinary(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return candidate;
    } catch {
      // Not there.
    }
  }
  return null;
}
const NGINX = nginxBinary();
if (!NGINX) console.log("topology: skipped, nginx is not installed (apt-get install nginx)");
const IMAGE = process.env.TOPOLOGY_IMAGE;

/** A process instance of the build, or a container of TOPOLOGY_IMAGE. */
function startInstance(options: AppOptions): Promise<AppInstance> {
  return IMAGE ? startContainer(IMAGE, options) : startApp(options);
}

/** deploy/nginx.conf with the given upstreams and port, in the foreground, its files under `dir`. */
function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  const conf = readFileSync(path.join(REPO_ROOT, "deploy/nginx.conf"), "utf8");
  const servers = upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=10s;`).join("\n");
  const replaced = conf
    .replace(/^\s*server app\d+:3000[^\n]*\n/gm, "")
    .replace(/upstream parley \{\n/, (match) => `${match}${servers}\n`)
    .replace("listen 80;", `listen 127.0.0.1:${port};`)
    .replace("pid /tmp/nginx.pid;", `pid ${dir}/nginx.pid;\ndaemon off;\nerror_log ${dir}/error.log warn;`)
    .replace(
      "location / {",
      `access_log off;\n    client_body_temp_path ${dir}/body;\n    proxy_temp_path ${dir}/proxy;\n    location / {\n      add_header X-Upstream $upstream_addr always;`,
    );
  if (!replaced.includes(servers) || !replaced.includes(`listen 127.0.0.1:${port};`))
    throw new Error("deploy/nginx.conf changed shape: update the topology test");
  return replaced;
}

/** A widget through the balancer, from the agent's allowed page. */
function connectWidget(url: string, agentId: string, resumeToken?: string): Promise<WidgetPage> {
  return openWidget(url, agentId, { origin: PAGE_ORIGIN, resumeToken });
}

/** A help read of the rate-limit probe. */
interface LimitSample {
  phase: Sample["phase"];
  status: number;
  /** The instance that answered (the last nginx tried). */
  upstream: string;
  body: Outcome["body"];
  policy: string | null;
  retryAfter: string | null;
  /** Date.now() when it was answered: the limit's windows are whole minutes of the clock. */
  at: number;
}

/** `count` reads of the agent's help collections through the balancer, PROBE_CONNECTIONS at a time. */
async function helpBurst(url: string, agentId: string, count: number, phase: Sample["phase"]): Promise<LimitSample[]> {
  const samples: LimitSample[] = [];
  let sent = 0;
  const connection = async () => {
    while (sent < count) {
      sent += 1;
      const outcome = await request(`${url}/api/agent/${agentId}/help`);
      samples.push({
        phase,
        status: outcome.status,
        upstream: (outcome.headers.get("x-upstream") ?? "").split(", ").at(-1) ?? "",
        body: outcome.body,
        policy: outcome.headers.get("ratelimit-policy"),
        retryAfter: outcome.headers.get("retry-after"),
        at: Date.now(),
      });
    }
  };
  await Promise.all(Array.from({ length: PROBE_CONNECTIONS }, connection));
  return samples;
}

interface Sample {
  kind: "turn" | "help";
  phase: "before" | "failover" | "restarted";
  status: number;
  upstream: string;
  body: Outcome["body"];
}

describe.skipIf(!NGINX)("topology: two instances behind nginx, one killed", () => {
  let db: ServerDatabase;
  let receiver: Receiver;
  /** The most deliveries of one event the receiver had open at once. */
  let mostAtOnce = 0;
  let apps: Array<AppInstance | undefined> = [];
  let nginx: ReturnType<typeof spawn> | undefined;
  let nginxDir = "";
  let lbUrl = "";
  let appEnv: Record<string, string> = {};
  let authSecret = "";

  beforeAll(async () => {
    db = await createSeededDatabase();
    // A receiver that takes 200 ms to answer, so deliveries are in flight when an instance dies.
    receiver = await startReceiver(() => {
      for (const open of receiver.inFlight.values()) mostAtOnce = Math.max(mostAtOnce, open);
      return { status: 200, delayMs: 200 };
    });
    const lbPort = await freePort();
    lbUrl = `http://127.0.0.1:${lbPort}`;
    authSecret = newAuthSecret();
    // Both instances know the balancer's address as theirs: the panel's sign-in and its same-origin
    // check see the URL the browser (here: the test) uses.
    appEnv = {
      ...sharedStoresEnv(db.url, "parley-topology"),
      APP_URL: lbUrl,
      NEXTAUTH_URL: lbUrl,
      TRUST_PROXY: "1",
      RATE_LIMIT_SCALE: String(RATE_LIMIT_SCALE),
      // The webhook receiver is on 127.0.0.1.
      WEBHOOKS_ALLOW_LOCAL: "1",
    };
    if (IMAGE) {
      // The image's one-shot migration, as compose runs it before the instances (a no-op here:
      // the test database is migrated already; it proves the command and its connection).
      const migrate = spawnSync(
        "podman",
        ["run", "--rm", "--network", "host", "-e", `DATABASE_URL=${appEnv.DATABASE_URL}`, IMAGE, "migrate"],
        {
          encoding: "utf8",
        },
      );
      if (migrate.status !== 0) throw new Error(`the image's migrate failed:\n${migrate.stdout}\n${migrate.stderr}`);
    }
    apps = await Promise.all([1, 2].map((n) => startInstance({ name: `topology-${n}`, env: appEnv, authSecret })));
    nginxDir = mkdtempSync(path.join(tmpdir(), "parley-topology-nginx-"));
    // nginx's workers (another user when it runs as root) create their temporary folders in it.
    chmodSync(nginxDir, 0o755);
    const confFile = path.join(nginxDir, "nginx.conf");
    writeFileSync(
      confFile,
      nginxConfig(
        nginxDir,
        lbPort,
        apps.map((app) => app!.port),
      ),
    );
    nginx = spawn(NGINX!, ["-p", nginxDir, "-c", confFile, "-e", path.join(nginxDir, "error.log")], { stdio: "ignore" });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const ok = await fetch(`${lbUrl}/api/health`)
        .then((response) => response.status === 200)
        .catch(() => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${tail(path.join(nginxDir, "error.log"))}`);
      await sleep(100);
    }
  });

  printLogsOnFailure(() => apps);

  afterAll(async () => {
    await receiver?.close();
    const nginxExited = nginx && nginx.exitCode === null ? new Promise((resolve) => nginx!.once("exit", resolve)) : undefined;
    nginx?.kill("SIGTERM");
    await Promise.all(apps.map((app) => app?.stop()));
    await db?.close();
    await nginxExited;
    // nginx's configuration, pid, error log and temporary folders.
    if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
  });

  it("SIGKILL of the widget's instance under load: no acknowledged turn lost, the widget resumes on the other, the admin's reply reaches it", async () => {
    const agent = await createAgent(db, "topology");
    await db.prisma.agent.update({ where: { id: agent.id }, data: { allowedOrigins: [PAGE_ORIGIN] } });
    const upstreamOf = (app: AppInstance | undefined) => `127.0.0.1:${app!.port}`;

    // The widget's conversation, through the balancer.
    const widget = await connectWidget(lbUrl, agent.id);
    await widget.reply(widget.send("How do I reset my password?"));
    const ready = widget.frames.filter((frame) => frame.type === "ready").at(-1)!;
    const conversationId = ready.conversationId as string;
    const resumeToken = ready.resumeToken as string;
    expect(conversationId).toBeTruthy();
    const endpoint = await db.prisma.webhookEndpoint.create({
      data: {
        workspaceId: "ws-demo",
        url: receiver.url,
        eventTypes: ["conversation.created"],
        secret: `whsec_${randomBytes(32).toString("base64")}`,
      },
    });
    const victimIndex = apps.findIndex((app) => upstreamOf(app) === widget.upstream);
    expect(victimIndex, `the widget's upstream ${widget.upstream} is one of the instances`).toBeGreaterThanOrEqual(0);
    const victim = apps[victimIndex]!;
    const survivor = apps[1 - victimIndex]!;

    // Load: API turns from several clients and help reads, all through the balancer.
    let phase: Sample["phase"] = "before";
    let running = true;
    const samples: Sample[] = [];
    // A request counts in the phase it ended in: one in flight when the instance died is the failover's.
    const record = async (kind: Sample["kind"], request: () => Promise<Response>) => {
      try {
        const response = await request();
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (nginx's 502 page).
        }
        samples.push({ kind, phase, status: response.status, upstream: response.headers.get("x-upstream") ?? "", body });
      } catch {
        samples.push({ kind, phase, status: 0, upstream: "", body: null });
      }
    };
    const turnClient = async (client: number) => {
      for (let i = 0; running; i++) {
        await record("turn", () =>
          fetch(`${lbUrl}/api/agent/${agent.id}/messages`, {
            method: "POST",
            headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
            body: JSON.stringify({ message: `Client ${client}, question ${i}: how do refunds work?` }),
          }),
        );
      }
    };
    const helpClient = async () => {
      while (running) await record("help", () => fetch(`${lbUrl}/api/agent/demo/help`));
    };
    // The instances' PostgreSQL connections (by their application_name), sampled for sizing.
    let maxConnections = 0;
    const sampleConnections = async () => {
      while (running) {
        const rows = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'parley-topology'",
        );
        maxConnections = Math.max(maxConnections, rows[0]?.n ?? 0);
        await sleep(250);
      }
    };
    // New widget conversations, one after another: each one's conversation.created goes to the receiver.
    let widgetConversations = 0;
    const widgetClient = async () => {
      while (running) {
        try {
          const page = await connectWidget(lbUrl, agent.id);
          await page.reply(page.send("A new visitor: how do refunds work?"), 10_000);
          widgetConversations += 1;
          page.close();
        } catch {
          // Its instance died under it: the next conversation goes to the other.
        }
      }
    };
    // The rate-limit probe: one agent's help reads from this one address through the balancer; half
    // its limit before the kill (both instances take some), the rest and PROBE_OVER_LIMIT more while
    // one instance is down, PROBE_OVER_LIMIT again after its restart. The limit's windows are whole
    // minutes of the clock (a sliding window that weighs in the previous minute's count), so the
    // probe starts early in a minute, to end within it: then exactly HELP_LIMIT pass. (Help reads
    // rather than turns: the same shared sliding window in Redis, at a fraction of the load.)
    const probeAgent = await createAgent(db, "topology-help-limit");
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > PROBE_START_LATEST_MS) await sleep(60_000 - intoMinute + 250);
    const probeHalf = Math.floor(HELP_LIMIT / 2);

    const loadStartedAt = performance.now();
    const load = Promise.all([
      ...Array.from({ length: CLIENTS }, (_, client) => turnClient(client)),
      helpClient(),
      widgetClient(),
      sampleConnections(),
    ]);

    const probe = await helpBurst(lbUrl, probeAgent.id, probeHalf, "before");
    await sleep(Math.max(0, 3_000 - (performance.now() - loadStartedAt)));
    phase = "failover";
    const killedAt = performance.now();
    await victim.kill();
    const failoverProbe = helpBurst(lbUrl, probeAgent.id, HELP_LIMIT - probeHalf + PROBE_OVER_LIMIT, "failover");

    // The widget's socket died with its instance: it reconnects through the balancer, as the
    // widget does, with its resume token.
    expect((await widget.closed).code).toBe(1006);
    await sleep(500);
    const resumed = await connectWidget(lbUrl, agent.id, resumeToken);
    const reconnectedAfter = performance.now() - killedAt;
    expect(resumed.upstream).toBe(upstreamOf(survivor));
    const resumedReady = resumed.frames.find((frame) => frame.type === "ready")!;
    expect(resumedReady.conversationId).toBe(conversationId);
    expect((resumedReady.messages as Array<{ text: string }>).map((message) => message.text)).toContain("How do I reset my password?");
    await resumed.reply(resumed.send("And how do I change my email?"));

    // The panel admin answers the conversation through the balancer; the visitor sees it.
    const cookie = await signIn(lbUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const reply = await fetch(`${lbUrl}/api/trpc/conversations.reply`, {
      method: "POST",
      headers: { cookie, origin: lbUrl, "content-type": "application/json" },
      body: JSON.stringify({ id: conversationId, text: "Hi, this is the support team." }),
    });
    expect(reply.status).toBe(200);
    await until("the admin's reply at the widget", () =>
      resumed.frames.some((frame) => frame.type === "message" && frame.role === "human" && frame.text === "Hi, this is the support team."),
    );

    probe.push(...(await failoverProbe));
    await sleep(Math.max(0, 4_000 - (performance.now() - killedAt)));
    // The killed instance comes back on its port; nginx tries it again after fail_timeout (10 s).
    const restarted = await startInstance({ name: "topology-restarted", env: appEnv, authSecret, port: victim.port }).catch(
      (error: Error) => error,
    );
    expect(restarted).not.toBeInstanceOf(Error);
    apps[victimIndex] = restarted as AppInstance;
    phase = "restarted";
    const restartedAt = performance.now();
    await until(
      "the restarted instance to take traffic",
      () => samples.some((sample) => sample.phase === "restarted" && sample.upstream === upstreamOf(victim) && sample.status === 200),
      20_000,
    );
    probe.push(...(await helpBurst(lbUrl, probeAgent.id, PROBE_OVER_LIMIT, "restarted")));
    await sleep(1_000);
    running = false;
    await load;
    resumed.close();

    // Every acknowledged turn is stored, reply and all.
    const acknowledged = samples.filter((sample) => sample.kind === "turn" && sample.status === 200);
    const stored = await db.prisma.message.findMany({
      where: { conversation: { agentId: agent.id }, role: "agent" },
      select: { conversationId: true, text: true },
    });
    const storedKeys = new Set(stored.map((message) => `${message.conversationId}\n${message.text}`));
    const lost = acknowledged.filter((sample) => !storedKeys.has(`${sample.body.conversationId}\n${sample.body.reply}`));
    expect(lost).toEqual([]);

    // Rate limits stay shared exactly: HELP_LIMIT of the probe's reads pass in all, whichever
    // instance took them, and the restarted instance refuses like the survivor.
    const probeIn = (name: Sample["phase"]) => probe.filter((sample) => sample.phase === name);
    const passedIn = (name: Sample["phase"]) => probeIn(name).filter((sample) => sample.status === 200).length;
    const refusals = probe.filter((sample) => sample.status === 429);
    expect(new Set(probe.map((sample) => Math.floor(sample.at / 60_000))).size, "the probe ran within one minute of the clock").toBe(1);
    expect(tally(probe), formatTally(tally(probe))).toEqual({ 200: HELP_LIMIT, 429: 2 * PROBE_OVER_LIMIT });
    expect([passedIn("before"), passedIn("failover"), passedIn("restarted")]).toEqual([probeHalf, HELP_LIMIT - probeHalf, 0]);
    expect(new Set(probeIn("before").map((sample) => sample.upstream))).toEqual(new Set([upstreamOf(victim), upstreamOf(survivor)]));
    for (const sample of probeIn("failover")) expect(sample.upstream).toBe(upstreamOf(survivor));
    expect(probeIn("restarted").some((sample) => sample.upstream === upstreamOf(victim))).toBe(true);
    for (const sample of probe) expect(sample.policy).toBe(`"help";q=${HELP_LIMIT};w=60`);
    for (const sample of refusals) {
      expect(sample.body).toEqual({ error: "Rate limit exceeded" });
      expect(Number(sample.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(sample.retryAfter)).toBeLessThanOrEqual(60);
    }
    const retryAfters = refusals.map((sample) => Number(sample.retryAfter));

    // Every conversation.created is delivered (a delivery the dead instance held is sent again once
    // its lease expires, 60 s), never twice at once.
    const webhooksFrom = performance.now();
    const undelivered = async () => db.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id, status: { not: "succeeded" } } });
    while ((await undelivered()) > 0) {
      if (performance.now() - webhooksFrom > 120_000)
        throw new Error(`${await undelivered()} webhook deliveries still undelivered after 120 s`);
      await sleep(500);
    }
    const waitedForWebhooksMs = performance.now() - webhooksFrom;
    const events = await db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, select: { eventId: true } });
    const received = new Map<string, number>();
    for (const request of receiver.requests) received.set(request.id, (received.get(request.id) ?? 0) + 1);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(received.get(event.eventId) ?? 0, `event ${event.eventId} received`).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(1);
    const sentAgain = [...received.values()].filter((count) => count > 1).length;

    // Failures only while the instance died, only what it had taken (at most one a client), as 502.
    const failures = samples.filter((sample) => sample.status !== 200);
    const byPhase = (name: Sample["phase"]) => samples.filter((sample) => sample.phase === name);
    const failedIn = (name: Sample["phase"]) => failures.filter((sample) => sample.phase === name);
    expect(failedIn("before")).toEqual([]);
    expect(failedIn("restarted")).toEqual([]);
    expect(failedIn("failover").length).toBeLessThanOrEqual(CLIENTS + 1);
    for (const failure of failures) expect(failure.status).toBe(502);

    const share = (name: Sample["phase"], app: AppInstance) => byPhase(name).filter((sample) => sample.upstream === upstreamOf(app)).length;
    console.log(
      [
        `topology (${IMAGE ? `containers of ${IMAGE}` : "processes of the build"}): ${samples.length} requests through nginx (${acknowledged.length} acknowledged turns, all stored; ${samples.filter((s) => s.kind === "help").length} help reads)`,
        `  before the kill: ${byPhase("before").length} requests, ${failedIn("before").length} failed; killed instance took ${share("before", victim)}, the other ${share("before", survivor)}`,
        `  failover window (SIGKILL to restart, ${Math.round(restartedAt - killedAt)} ms): ${byPhase("failover").length} requests, ${failedIn("failover").length} failed (${((100 * failedIn("failover").length) / Math.max(1, byPhase("failover").length)).toFixed(2)} %, all 502: requests the dead instance had taken)`,
        `  after the restart: ${byPhase("restarted").length} requests, ${failedIn("restarted").length} failed; restarted instance took ${share("restarted", victim)}`,
        `  webhooks: ${events.length} conversation.created events (${widgetConversations} widget conversations completed), every one delivered, never two deliveries of one at once; ${sentAgain} sent again after the kill (receivers dedupe by webhook-id); all delivered ${Math.round(waitedForWebhooksMs)} ms after the load ended`,
        `  rate limit (one agent's help reads from one address, ${HELP_LIMIT} a minute at the test's scale ${RATE_LIMIT_SCALE}), started ${Math.round((probe[0]!.at % 60_000) / 1000)} s into a minute: ${probe.length} reads, exactly ${HELP_LIMIT} passed; ` +
          `before the kill ${passedIn("before")} of ${probeIn("before").length} (killed instance ${probeIn("before").filter((sample) => sample.upstream === upstreamOf(victim)).length}, the other ${probeIn("before").filter((sample) => sample.upstream === upstreamOf(survivor)).length}); ` +
          `one instance down ${passedIn("failover")} of ${probeIn("failover").length}, the rest 429; after the restart ${passedIn("restarted")} of ${probeIn("restarted").length} (restarted instance refused ${probeIn("restarted").filter((sample) => sample.upstream === upstreamOf(victim)).length}); ` +
          `every 429 {"error":"Rate limit exceeded"} with Retry-After ${Math.min(...retryAfters)}–${Math.max(...retryAfters)} s`,
        `  PostgreSQL connections of the instances: at most ${maxConnections} at once (both together)`,
        `  widget: reconnected through nginx to the other instance ${Math.round(reconnectedAfter)} ms after the kill (500 ms of it the widget's own delay), same conversation, the admin's reply delivered`,
      ].join("\n"),
    );
    // The probe may wait for a new minute (up to 45 s), the webhooks for a dead instance's lease (60 s).
  }, 300_000);
});
