// The package boundaries the README's layout promises, checked on the sources: core reads no
// process state (settings reach it through its context), and no code imports another package's
// src/ or a core path that is not one of its named entries.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");
const coreExports = Object.keys(
  (JSON.parse(readFileSync(path.join(repo, "packages/core/package.json"), "utf8")) as { exports: Record<string, string> }).exports,
);

function sources(dir: string): string[] {
  return readdirSync(path.join(repo, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|mjs)$/.test(entry.name))
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/(^|\/)(node_modules|\.next|generated)\//.test(file));
}

describe("package boundaries", () => {
  it("core's sources read no environment (only the test helpers do)", () => {
    const readers = sources("packages/core/src").filter(
      (file) => file !== "packages/core/src/testing.ts" && /process\.env/.test(readFileSync(path.join(repo, file), "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("imports of core name one of its entries, and nothing imports another package's src/", () => {
    const offenders: string[] = [];
    for (const dir of ["apps/web", "packages/api", "packages/db", "bench", "eval", "e2e", "scripts"]) {
      for (const file of sources(dir)) {
        const text = readFileSync(path.join(repo, file), "utf8");
        for (const [, specifier] of text.matchAll(/from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
          if (!specifier) continue;
          const entry = specifier.match(/^@parley\/core(\/.*)?$/);
          if (entry && !coreExports.includes(`.${entry[1] ?? ""}`)) offenders.push(`${file}: ${specifier}`);
          if (/^(\.\.\/)+(?:\.\.\/)*(packages|apps)\/[^/]+\/src\//.test(specifier)) offenders.push(`${file}: ${specifier}`);
          if (/^@parley\/[^/]+\/src\//.test(specifier)) offenders.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the panel's client components import core only through its browser-safe entries", () => {
    const offenders: string[] = [];
    for (const file of sources("apps/web")) {
      const text = readFileSync(path.join(repo, file), "utf8");
      if (!/^\s*["']use client["']/m.test(text)) continue;
      for (const [, specifier] of text.matchAll(/from\s+"(@parley\/core[^"]*)"/g))
        if (specifier !== "@parley/core/browser" && specifier !== "@parley/core/limits") offenders.push(`${file}: ${specifier}`);
    }
    expect(offenders).toEqual([]);
  });
});
