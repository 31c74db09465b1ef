// `npm run db:seed` (src/cli/seed.ts) as npm runs it, on an embedded data folder: it seeds the demo
// data with the app's settings; it and the start-up's setup (src/cli/setup.ts) refuse, with the
// folder's one-line message, while another process holds the folder (packages/db's folder-lock
// tests refuse the db commands the same way), and a folder inside a held one or holding one.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { verifyPassword } from "@parley/core/people";
import { lockDataFolder, migrate, openDatabase } from "@parley/db";
import { afterEach, beforeEach, expect, it } from "vitest";

const CLI_DIR = path.resolve(import.meta.dirname, "../src/cli");

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "parley-seed-cli-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function runCli(name: "seed" | "setup", env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(CLI_DIR, `${name}.ts`)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: root, NODE_ENV: "test", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

it("seeds the demo data with the app's settings: ADMIN_EMAIL, ADMIN_PASSWORD, and APP_URL's origin for the demo widget", async () => {
  // Migrated first, as `npm run db:setup` does.
  const migrated = await openDatabase({ dataDir: path.join(root, "pglite") });
  await migrate(migrated);
  await migrated.close();
  const result = await runCli("seed", {
    ADMIN_EMAIL: "Boss@Example.com",
    ADMIN_PASSWORD: "seed-cli-password",
    APP_URL: "https://help.example.com/",
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(
    "Seeded the demo data into the embedded database.\nAdmin login: boss@example.com (password set from ADMIN_PASSWORD)\n",
  );
  const db = await openDatabase({ dataDir: path.join(root, "pglite") });
  try {
    const admin = await db.prisma.user.findUniqueOrThrow({ where: { id: "user-admin" } });
    expect(admin.email).toBe("boss@example.com");
    expect(await verifyPassword("seed-cli-password", admin.passwordHash)).toBe(true);
    const demo = await db.prisma.agent.findUniqueOrThrow({ where: { id: "demo" } });
    expect(demo.allowedOrigins).toContain("https://help.example.com");
  } finally {
    await db.close();
  }
}, 120_000);

it("refuses, as setup does, a folder another process holds: exit 1, the one-line message, nothing printed", async () => {
  const folder = path.join(root, "pglite");
  const inUse = new RegExp(
    `^The data folder ${folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use by process ${process.pid} \\(.+\\): only one process may open it; stop that process first\\.$`,
  );
  const lock = await lockDataFolder(folder);
  try {
    for (const name of ["seed", "setup"] as const) {
      const result = await runCli(name, { ADMIN_PASSWORD: "seed-cli-password" });
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim(), name).toMatch(inUse);
      expect(result.stdout, name).toBe("");
    }
  } finally {
    await lock.release();
  }
}, 60_000);

it("refuses a data folder inside a held one, and one that holds a held one: exit 1, the one-line message, nothing printed", async () => {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const outer = path.join(root, "pglite");
  const held = await lockDataFolder(outer);
  try {
    const inner = path.join(outer, "pglite");
    const inside = new RegExp(
      `^The data folder ${escapeRegExp(inner)} is inside the data folder ${escapeRegExp(outer)}, in use by process ${process.pid} \\(.+\\): a data folder may not hold another; choose a DATA_DIR outside it\\.$`,
    );
    for (const name of ["seed", "setup"] as const) {
      const result = await runCli(name, { DATA_DIR: outer, ADMIN_PASSWORD: "seed-cli-password" });
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim(), name).toMatch(inside);
      expect(result.stdout, name).toBe("");
    }
  } finally {
    await held.release();
  }

  const nested = path.join(outer, "nested", "pglite");
  const heldInside = await lockDataFolder(nested);
  try {
    const holds = new RegExp(
      `^The data folder ${escapeRegExp(outer)} holds the data folder ${escapeRegExp(nested)}, in use by process ${process.pid} \\(.+\\): a data folder may not hold another; choose a DATA_DIR outside it\\.$`,
    );
    for (const name of ["seed", "setup"] as const) {
      const result = await runCli(name, { ADMIN_PASSWORD: "seed-cli-password" });
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim(), name).toMatch(holds);
      expect(result.stdout, name).toBe("");
    }
  } finally {
    await heldInside.release();
  }
}, 120_000);
