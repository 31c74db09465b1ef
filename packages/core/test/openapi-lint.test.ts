// The OpenAPI document as the app serves it (GET /api/openapi.json builds it with
// buildOpenApiDocument) passes Redocly's CLI with the recommended rules (redocly.yaml at the
// repository root) with zero errors and zero warnings, for a local instance and an https one.
// Offline: redocly.yaml and the environment turn telemetry and the update check off.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.ts";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const REDOCLY = path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
const CONFIG = path.join(ROOT, "redocly.yaml");

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ pointer: string }>;
}

interface LintResult {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parley-openapi-lint-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Lints one document with `redocly lint --format=json` (it exits 1 on errors, and still prints). */
async function lint(name: string, document: unknown): Promise<LintResult> {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const output = await run(process.execPath, [REDOCLY, "lint", "--config", CONFIG, "--format=json", file], { env, cwd: dir }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
  );
  return JSON.parse(output.stdout) as LintResult;
}

/** One line per problem, for a readable failure. */
function describeProblems(result: LintResult): string[] {
  return result.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
}

describe("redocly lint (recommended rules) of the served document", () => {
  it.each([
    ["a local instance", "http://localhost:3000"],
    ["an https deployment", "https://parley.example.com"],
  ])("%s: zero errors, zero warnings", async (_name, appUrl) => {
    const result = await lint(new URL(appUrl).hostname, buildOpenApiDocument({ appUrl }));
    expect(describeProblems(result)).toEqual([]);
    expect(result.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it("counts warnings as this test reads them (a document without its license gets one)", async () => {
    const { license: _license, ...info } = buildOpenApiDocument({ appUrl: "http://localhost:3000" }).info;
    const result = await lint("no-license", { ...buildOpenApiDocument({ appUrl: "http://localhost:3000" }), info });
    expect(result.totals).toEqual({ errors: 0, warnings: 1, ignored: 0 });
    expect(result.problems.map((problem) => [problem.severity, problem.ruleId])).toEqual([["warn", "info-license"]]);
  });
});
