// The scheduler of background tasks on a real database (PGlite, or PostgreSQL with DATABASE_URL):
// each task on its own interval, a cluster lease that lets one of two instances run a task at a
// time, a failing task recorded with a short error code while the others go on, the metrics in
// the health output, and stop() waiting for the runs in progress.
import { type Database, openDatabase } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../src/platform/errors.ts";
import { tasksHealth } from "../src/platform/health.ts";
import { configureLogging } from "../src/platform/logger.ts";
import { errorCode } from "../src/platform/scheduler/metrics.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";
import { OVERDUE_GRACE_MS } from "../src/platform/scheduler/status.ts";
import type { ScheduledTask } from "../src/platform/scheduler/task.ts";

let db: TestDatabase;
let otherDb: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  // On PostgreSQL the second instance has its own connection pool, as another process would.
  otherDb = db.url ? await openDatabase({ url: db.url, poolSize: 4 }) : db;
});

afterAll(async () => {
  if (otherDb !== db) await otherDb.close();
  await db.close();
});

const schedulers: Scheduler[] = [];
let logLines: Array<Record<string, unknown>>;

beforeEach(async () => {
  await db.prisma.jobLease.deleteMany({});
  logLines = [];
  configureLogging({ level: "error" });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
    return true;
  });
});

afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop(0)));
  vi.restoreAllMocks();
  configureLogging({ level: "silent" });
});

function scheduler(options: { db?: Database; name?: string; now?: () => Date } = {}): Scheduler {
  const created = new Scheduler({ db: options.db ?? db, name: options.name, now: options.now });
  schedulers.push(created);
  return created;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task that records when each run started and ended. */
function timedTask(name: string, intervalMs: number, runMs = 0) {
  const runs: Array<{ start: number; end: number }> = [];
  const task: ScheduledTask = {
    name,
    intervalMs,
    async run() {
      const start = performance.now();
      if (runMs > 0) await sleep(runMs);
      runs.push({ start, end: performance.now() });
    },
  };
  return { task, runs };
}

describe("intervals", () => {
  it("runs each task at start, then an interval after its previous run ended, each on its own interval", async () => {
    const fast = timedTask("fast", 40, 10);
    const slow = timedTask("slow", 250);
    scheduler().add(fast.task).add(slow.task).start();
    await sleep(1_100);

    expect(slow.runs.length).toBeGreaterThanOrEqual(3);
    expect(slow.runs.length).toBeLessThanOrEqual(5);
    // Twice as many, not the ~5x an idle machine gives: timers run late on a loaded one, and one
    // shared loop would give both the same count.
    expect(fast.runs.length).toBeGreaterThanOrEqual(slow.runs.length * 2);
    for (const { runs, intervalMs } of [
      { runs: fast.runs, intervalMs: 40 },
      { runs: slow.runs, intervalMs: 250 },
    ]) {
      for (let index = 1; index < runs.length; index += 1) {
        expect(runs[index]!.start - runs[index - 1]!.end).toBeGreaterThanOrEqual(intervalMs - 2);
      }
    }
  });

  it("runs a task again at once when its run says there is more, and when it is woken", async () => {
    let batches = 3;
    let runs = 0;
    let wake = () => {};
    const task: ScheduledTask = {
      name: "batches",
      intervalMs: 60_000,
      async run() {
        runs += 1;
        if (batches === 0) return undefined;
        batches -= 1;
        return "more";
      },
      connect(wakeTask) {
        wake = wakeTask;
      },
    };
    scheduler().add(task).start();
    // Three full batches and the run that finds nothing left, then the minute's wait.
    await vi.waitFor(() => expect(runs).toBe(4), { timeout: 2_000, interval: 10 });
    await sleep(100);
    expect(runs).toBe(4);
    wake();
    await vi.waitFor(() => expect(runs).toBe(5), { timeout: 2_000, interval: 10 });
  });

  it("refuses two tasks of one name and an interval of 0", () => {
    const tasks = scheduler().add(timedTask("twice", 100).task);
    expect(() => tasks.add(timedTask("twice", 100).task)).toThrow('a task named "twice" was already added');
    expect(() => tasks.add(timedTask("never", 0).task)).toThrow("needs an interval above 0 ms");
  });
});

describe("cluster leases", () => {
  /** The same task on each instance, counting runs and how many run at once across both. */
  function leasedTasks(intervalMs: number, runMs: number) {
    const state = { runs: 0, running: 0, mostAtOnce: 0 };
    const task = (): ScheduledTask => ({
      name: "cluster-job",
      intervalMs,
      lease: { holdMs: 60_000 },
      async run() {
        state.runs += 1;
        state.running += 1;
        state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
        await sleep(runMs);
        state.running -= 1;
      },
    });
    return { state, task };
  }

  it("two instances on one database run a task once per interval, not twice, and give the lease back", async () => {
    const { state, task } = leasedTasks(3_600_000, 20);
    const a = scheduler({ name: "instance-a" }).add(task()).start();
    const b = scheduler({ db: otherDb, name: "instance-b" }).add(task()).start();
    await sleep(500);
    await Promise.all([a.stop(), b.stop()]);

    expect(state.runs).toBe(1);
    const lease = await db.prisma.jobLease.findUniqueOrThrow({ where: { name: "cluster-job" } });
    expect(lease).toMatchObject({ runs: 1, holder: null, lockedUntil: null });
    const [statusA] = await a.status();
    const [statusB] = await b.status();
    expect(statusA!.runs + statusB!.runs).toBe(1);
    expect(statusA!.clusterLastRunAt).toEqual(lease.lastRunAt);
    expect(statusB!.clusterLastRunAt).toEqual(lease.lastRunAt);
  });

  it("with a short interval the instances take turns, never two runs at once", async () => {
    const { state, task } = leasedTasks(60, 80);
    scheduler({ name: "instance-a" }).add(task()).start();
    scheduler({ db: otherDb, name: "instance-b" }).add(task()).start();
    await sleep(1_200);

    expect(state.mostAtOnce).toBe(1);
    expect(state.runs).toBeGreaterThanOrEqual(4);
    expect((await db.prisma.jobLease.findUniqueOrThrow({ where: { name: "cluster-job" } })).runs).toBeGreaterThanOrEqual(state.runs - 1);
  });

  it("takes over a lease its holder never gave back only once the lease has expired", async () => {
    const past = new Date(Date.now() - 3_600_000);
    await db.prisma.jobLease.create({
      data: { name: "cluster-job", holder: "crashed", lockedUntil: new Date(Date.now() + 400), lastRunAt: past, runs: 1 },
    });
    const { state, task } = leasedTasks(1_000, 0);
    scheduler({ name: "instance-a" })
      .add({ ...task(), lease: { holdMs: 60_000, checkEveryMs: 50 } })
      .start();
    await sleep(250);
    expect(state.runs).toBe(0);
    await vi.waitFor(() => expect(state.runs).toBe(1), { timeout: 2_000, interval: 20 });
  });
});

describe("failures", () => {
  it("records a failing task with a short error code, logs it without a stack or secret, and the other tasks go on", async () => {
    const secretUrl = "postgres://parley:hunter2@db.internal:5432/parley";
    const broken: ScheduledTask = {
      name: "broken",
      intervalMs: 30,
      async run() {
        throw Object.assign(new Error(`connect ECONNREFUSED ${secretUrl}`), { code: "ECONNREFUSED" });
      },
    };
    const healthy = timedTask("healthy", 30);
    const tasks = scheduler({ name: "failing-instance" }).add(broken).add(healthy.task).start();
    await sleep(400);

    const [brokenStatus, healthyStatus] = await tasks.status();
    expect(brokenStatus).toMatchObject({ name: "broken", lastOutcome: "error", lastErrorCode: "ECONNREFUSED", overdue: false });
    expect(brokenStatus!.runs).toBeGreaterThanOrEqual(3);
    expect(brokenStatus!.failures).toBe(brokenStatus!.runs);
    expect(healthyStatus).toMatchObject({ name: "healthy", lastOutcome: "ok", lastErrorCode: null, failures: 0 });
    expect(healthy.runs.length).toBeGreaterThanOrEqual(5);

    const failures = logLines.filter((line) => line.message === "background task failed");
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures[0]).toMatchObject({ level: "error", worker: "failing-instance", task: "broken" });
    expect(JSON.stringify(failures)).not.toContain("hunter2");
    expect(String(failures[0]!.error)).not.toMatch(/\bat .*:\d+:\d+/);
  });

  it("backs off after failures in a row when the task asks for it, up to its limit; a success resets the wait", async () => {
    const starts: number[] = [];
    const flaky: ScheduledTask = {
      name: "flaky",
      intervalMs: 50,
      maxBackoffMs: 200,
      async run() {
        starts.push(performance.now());
        if (starts.length <= 3) throw new TypeError("boom");
      },
    };
    scheduler().add(flaky).start();
    await vi.waitFor(() => expect(starts.length).toBeGreaterThanOrEqual(5), { timeout: 3_000, interval: 10 });
    const gaps = starts.slice(1).map((start, index) => start - starts[index]!);
    // After failures 1, 2, 3: 100, 200, 200 ms (400 without the limit); after the success: 50 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(98);
    expect(gaps[1]).toBeGreaterThanOrEqual(198);
    expect(gaps[2]).toBeGreaterThanOrEqual(198);
    expect(gaps[2]).toBeLessThan(390);
    expect(gaps[3]).toBeGreaterThanOrEqual(48);
    expect(gaps[3]).toBeLessThan(190);
  });

  it("names a failure by its code, else its class, never by its message", () => {
    expect(errorCode(new AppError("FORBIDDEN"))).toBe("FORBIDDEN");
    expect(errorCode(Object.assign(new Error("unique"), { code: "P2002" }))).toBe("P2002");
    expect(errorCode(new TypeError("x is not a function"))).toBe("TypeError");
    expect(errorCode(new Error("whsec_abc in the message"))).toBe("ERROR");
    expect(errorCode(Object.assign(new Error("odd"), { code: "has spaces and: punctuation" }))).toBe("ERROR");
    expect(errorCode("thrown string")).toBe("ERROR");
    expect(errorCode(null)).toBe("ERROR");
  });
});

describe("health output", () => {
  it("shows each task's interval, last run, outcome, counts and overdue flag, with no error text", async () => {
    let clock = new Date("2026-06-01T10:00:00.000Z");
    const publishing = timedTask("publishing", 60_000);
    const broken: ScheduledTask = {
      name: "broken",
      intervalMs: 60_000,
      run: async () => {
        throw new AppError("FORBIDDEN");
      },
    };
    const retention: ScheduledTask = { name: "retention-like", intervalMs: 3_600_000, lease: { holdMs: 3_600_000 }, run: async () => {} };
    const tasks = scheduler({ name: "health-instance", now: () => clock })
      .add(publishing.task)
      .add(broken)
      .add(retention)
      .start();
    await vi.waitFor(async () => expect((await tasks.status()).every((task) => task.runs === 1 && !task.runningSince)).toBe(true), {
      timeout: 2_000,
      interval: 10,
    });

    const health = await tasksHealth(tasks);
    expect(health).toEqual({
      status: "ok",
      instance: "health-instance",
      tasks: [
        {
          name: "publishing",
          intervalMs: 60_000,
          scope: "instance",
          running: false,
          runningSince: null,
          lastStartedAt: "2026-06-01T10:00:00.000Z",
          lastFinishedAt: expect.stringMatching(/^2026-06-01T10:00:00\.\d{3}Z$/),
          lastDurationMs: expect.any(Number),
          lastOutcome: "ok",
          lastErrorCode: null,
          runs: 1,
          failures: 0,
          overdue: false,
        },
        expect.objectContaining({ name: "broken", lastOutcome: "error", lastErrorCode: "FORBIDDEN", runs: 1, failures: 1, overdue: false }),
        expect.objectContaining({
          name: "retention-like",
          intervalMs: 3_600_000,
          scope: "cluster",
          lastOutcome: "ok",
          clusterLastRunAt: "2026-06-01T10:00:00.000Z",
          overdue: false,
        }),
      ],
    });
    expect(JSON.stringify(health)).not.toContain("Forbidden");

    // A minute's interval and the grace later nothing has run (this test's clock stands still for
    // the timers): the instance tasks are overdue; the hourly one is not yet.
    clock = new Date(clock.getTime() + 60_000 + OVERDUE_GRACE_MS + 1_000);
    const late = await tasksHealth(tasks);
    expect(late.status).toBe("overdue");
    expect(late.tasks.map((task) => [task.name, task.overdue])).toEqual([
      ["publishing", true],
      ["broken", true],
      ["retention-like", false],
    ]);
    clock = new Date(clock.getTime() + 3_600_000 + 60_000);
    expect((await tasksHealth(tasks)).tasks.map((task) => task.overdue)).toEqual([true, true, true]);
  });

  it("does not call a task overdue while it runs, and says since when it runs", async () => {
    let clock = new Date("2026-06-01T10:00:00.000Z");
    let finish = () => {};
    const long: ScheduledTask = { name: "long", intervalMs: 10, run: () => new Promise<void>((resolve) => (finish = resolve)) };
    const tasks = scheduler({ now: () => clock })
      .add(long)
      .start();
    await vi.waitFor(async () => expect((await tasksHealth(tasks)).tasks[0]!.running).toBe(true), { timeout: 2_000, interval: 10 });
    clock = new Date(clock.getTime() + 3_600_000);
    expect((await tasksHealth(tasks)).tasks[0]).toMatchObject({
      running: true,
      runningSince: "2026-06-01T10:00:00.000Z",
      overdue: false,
      runs: 1,
      lastOutcome: null,
    });
    finish();
  });
});

describe("stop()", () => {
  it("waits for the runs in progress, asks long runs to end, and starts no run after", async () => {
    const events: string[] = [];
    let endLongRun = () => {};
    const short: ScheduledTask = {
      name: "short",
      intervalMs: 10,
      async run() {
        events.push("short started");
        await sleep(300);
        events.push("short ended");
      },
    };
    // Like the imports: its run lasts until it is told to stop.
    const long: ScheduledTask = {
      name: "long",
      intervalMs: 10,
      run: () =>
        new Promise<void>((resolve) => {
          events.push("long started");
          endLongRun = () => {
            events.push("long ended");
            resolve();
          };
        }),
      stop(graceMs) {
        events.push(`long asked to stop within ${graceMs} ms`);
        endLongRun();
      },
    };
    const tasks = scheduler().add(short).add(long).start();
    await vi.waitFor(() => expect(events).toContain("long started"), { timeout: 2_000, interval: 5 });
    await tasks.stop(1_234);
    events.push("stopped");

    expect(events.indexOf("short ended")).toBeLessThan(events.indexOf("stopped"));
    expect(events.indexOf("long ended")).toBeLessThan(events.indexOf("stopped"));
    expect(events).toContain("long asked to stop within 1234 ms");
    await sleep(100);
    expect(events.at(-1)).toBe("stopped");
    expect(events.filter((event) => event === "short started")).toHaveLength(1);
    expect((await tasks.status()).every((task) => task.runningSince === null)).toBe(true);
  });
});
