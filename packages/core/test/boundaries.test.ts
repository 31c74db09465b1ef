// The package boundaries are the lint's (`npm run lint`): .dependency-cruiser.cjs for imports, and
// biome.json's noProcessEnv with lint/process-env.grit for the environment. Each rule is shown to
// fail on a violation written into a temporary file of the package it concerns, checked by the same
// tool and configuration as the lint; the tree as it is passes both.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The import rules' violations among `paths` and what they import, as `npm run lint` finds them. */
async function importViolations(paths: string[]): Promise<Violation[]> {
  const options = await extractDepcruiseOptions(path.join(repo, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(options.tsConfig!.fileName!);
  const { output } = await cruise(paths, { ...options, baseDir: repo }, {}, { tsConfig });
  if (typeof output === "string") throw new Error("dependency-cruiser returned text, not a result");
  return output.summary.violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
}

/**
 * The environment rules' findings in `paths` (noProcessEnv and lint/process-env.grit), from Biome's
 * lint with the repository's configuration, as `npm run lint` runs it.
 */
function environmentFindings(paths: string[]): Array<{ rule: string; file: string }> {
  const biome = path.join(repo, "node_modules", ".bin", "biome");
  const result = spawnSync(biome, ["lint", "--reporter=github", "--max-diagnostics=none", ...paths], { cwd: repo, encoding: "utf8" });
  const findings: Array<{ rule: string; file: string }> = [];
  // One line per diagnostic: ::error title=<category>,file=<path>,line=...::<message>
  for (const [, title, file, message] of result.stdout.matchAll(/^::error title=([^,]+),file=([^,]+),[^:]*::(.*)$/gm)) {
    const rule = title === "plugin" ? message!.split(":")[0]! : title!;
    if (rule === "lint/style/noProcessEnv" || rule === "processEnvOnlyInEnvModules")
      findings.push({ rule, file: path.relative(repo, file!) });
  }
  return findings;
}

/**
 * Writes `files` (repo path -> source, "PROBE" replaced by a unique name), runs `check` on them, and
 * always removes them and the folders it made for them.
 */
async function withFiles<T>(files: Record<string, string>, check: (paths: string[]) => Promise<T> | T): Promise<T> {
  const unique = `boundary-probe-${randomUUID().slice(0, 8)}`;
  const written = Object.entries(files).map(([file, source]) => [file.replaceAll("PROBE", unique), source.replaceAll("PROBE", unique)]);
  const created: string[] = [];
  try {
    for (const [file, source] of written) {
      const absolute = path.join(repo, file!);
      const firstMade = mkdirSync(path.dirname(absolute), { recursive: true });
      if (firstMade) created.push(firstMade);
      writeFileSync(absolute, source!);
      created.push(absolute);
    }
    return await check(written.map(([file]) => file!));
  } finally {
    for (const made of created.reverse()) rmSync(made, { force: true, recursive: true });
  }
}

/** The violations found for the probe file `from` (what it imports may break rules of its own: not these). */
async function violationsOf(files: Record<string, string>): Promise<Violation[]> {
  return withFiles(files, async (paths) => (await importViolations(paths)).filter((violation) => paths.includes(violation.from)));
}

describe("the lint's import rules fail on", () => {
  it("core importing @parley/api (core imports only db)", async () => {
    const violations = await violationsOf({
      "packages/core/src/PROBE.ts": 'import { appRouter } from "@parley/api";\nexport const router = appRouter;\n',
    });
    expect(violations).toEqual([
      { rule: "core-imports-only-db", from: expect.stringMatching(/^packages\/core\/src\//), to: "packages/api/src/index.ts" },
    ]);
  });

  it("db importing @parley/core/conversations (db imports no other workspace package)", async () => {
    const violations = await violationsOf({
      "packages/db/src/PROBE.ts": 'import { runTurn } from "@parley/core/conversations";\nexport const turn = runTurn;\n',
    });
    expect(violations).toEqual([
      {
        rule: "db-imports-no-package",
        from: expect.stringMatching(/^packages\/db\/src\//),
        to: "packages/core/src/conversations/index.ts",
      },
    ]);
  });

  it("packages/api importing core by a relative path into its folder (entry points only)", async () => {
    const violations = await violationsOf({
      "packages/api/src/routers/PROBE.ts":
        'import type { PlatformContext } from "../../../core/src/platform/context.ts";\nexport type Context = PlatformContext;\n',
    });
    expect(violations).toEqual([
      {
        rule: "entry-points-only",
        from: expect.stringMatching(/^packages\/api\/src\/routers\//),
        to: "packages/core/src/platform/context.ts",
      },
    ]);
  });

  it('import("@parley/core/src/...") (not an entry of core\'s package.json exports)', async () => {
    const violations = await violationsOf({
      "packages/api/src/PROBE.ts": 'export const load = () => import("@parley/core/src/context.ts");\n',
    });
    expect(violations).toEqual([
      { rule: "entry-points-only-by-name", from: expect.stringMatching(/^packages\/api\/src\//), to: "@parley/core/src/context.ts" },
    ]);
  });

  it("an import cycle", async () => {
    const violations = await violationsOf({
      "packages/core/src/PROBE-a.ts": 'import { b } from "./PROBE-b.ts";\nexport const a = () => b;\n',
      "packages/core/src/PROBE-b.ts": 'import { a } from "./PROBE-a.ts";\nexport const b = () => a;\n',
    });
    expect(violations.map((violation) => violation.rule)).toEqual(["no-cycles"]);
  });

  it("the app importing from bench/ (nothing imports the tools)", async () => {
    const violations = await violationsOf({
      "bench/PROBE.ts": "export const tool = 1;\n",
      "apps/web/src/PROBE.ts": 'import { tool } from "../../../bench/PROBE.ts";\nexport const used = tool;\n',
    });
    expect(violations.map((violation) => violation.rule)).toEqual(["nothing-imports-tools"]);
  });

  it("another package's test support (only @parley/testing shares it)", async () => {
    const violations = await violationsOf({
      "packages/db/test/support/PROBE.ts": "export const helper = 1;\n",
      "apps/web/test/PROBE.ts": 'import { helper } from "../../../packages/db/test/support/PROBE.ts";\nexport const used = helper;\n',
    });
    expect(violations.map((violation) => violation.rule).sort()).toEqual(["entry-points-only", "test-support-only-from-testing"]);
  });
});

describe("the lint's environment rules fail on", () => {
  it.each([
    ['process["env"]', 'export const port = process["env"].PORT;\n', "lint/style/noProcessEnv"],
    ["const { env } = process", "const { env } = process;\nexport const port = env.PORT;\n", "processEnvOnlyInEnvModules"],
    [
      'import { env } from "node:process"',
      'import { env } from "node:process";\nexport const port = env.PORT;\n',
      "processEnvOnlyInEnvModules",
    ],
  ])("%s in core", async (_spelling, source, rule) => {
    const findings = await withFiles({ "packages/core/src/PROBE.ts": source }, environmentFindings);
    expect(findings).toContainEqual({ rule, file: expect.stringMatching(/^packages\/core\/src\/boundary-probe-/) });
  });

  it("but not in a package's env.ts", () => {
    expect(environmentFindings(["packages/db/src/env.ts", "apps/web/src/env.ts"])).toEqual([]);
  });
});

describe("the tree as it is", () => {
  it("passes the import rules", async () => {
    expect(await importViolations(["."])).toEqual([]);
  }, 60_000);

  it("passes the environment rules", () => {
    expect(environmentFindings(["."])).toEqual([]);
  }, 60_000);
});

// Not the lint's: the "use client" directive is no import it can see.
describe("the panel's client components", () => {
  function sources(dir: string): string[] {
    return readdirSync(path.join(repo, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|mjs)$/.test(entry.name))
      .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)))
      .filter((file) => !/(^|\/)(node_modules|\.next|generated)\//.test(file));
  }

  /** Core's limits entries (@parley/core/limits, @parley/core/<module>/limits ...) and their files. */
  function limitsEntries(): Array<{ specifier: string; file: string }> {
    const exports: Record<string, string> = JSON.parse(readFileSync(path.join(repo, "packages/core/package.json"), "utf8")).exports;
    return Object.entries(exports)
      .filter(([name]) => /(^\.\/|\/|-)limits$/.test(name))
      .map(([name, file]) => ({ specifier: `@parley/core${name.slice(1)}`, file: path.join("packages/core", file) }));
  }

  it("import core only through its browser-safe entries", () => {
    const browserSafe = new Set(["@parley/core/browser", ...limitsEntries().map((entry) => entry.specifier)]);
    const offenders: string[] = [];
    for (const file of sources("apps/web")) {
      const text = readFileSync(path.join(repo, file), "utf8");
      if (!/^\s*["']use client["']/m.test(text)) continue;
      for (const [, specifier] of text.matchAll(/from\s+"(@parley\/core[^"]*)"/g))
        if (!browserSafe.has(specifier!)) offenders.push(`${file}: ${specifier}`);
    }
    expect(offenders).toEqual([]);
  });

  it("may import the limits entries, which import nothing but other limits files", () => {
    const entries = limitsEntries();
    expect(entries.map((entry) => entry.specifier)).toContain("@parley/core/limits");
    const imports: string[] = [];
    for (const { file } of entries) {
      const text = readFileSync(path.join(repo, file), "utf8");
      for (const [, specifier] of text.matchAll(/(?:from|import)\s+"([^"]+)"/g)) imports.push(`${file}: ${specifier}`);
    }
    // The platform's body limits read paths as routing does: request-path.mjs is plain JavaScript with no import.
    const allowed = (line: string) =>
      /(^|[/-])limits\.ts$/.test(line) || line === "packages/core/src/platform/limits.ts: ./request-path.mjs";
    expect(imports.filter((line) => !allowed(line))).toEqual([]);
  });
});
