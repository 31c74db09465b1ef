// The package boundaries, checked by `npm run lint` (dependency-cruiser, on every import: static,
// dynamic, type-only and re-exports). Module paths are relative to the repository root.
//
//   db            imports no other workspace package
//   core          imports db
//   api           imports core, db
//   apps/web      imports api, core, db, client, web-sdk
//   client, web-sdk   import no other workspace package (they run in browsers and users' code)
//   testing       the private test support: imports api, core, db; only tests, bench, eval, e2e
//                 and the reliability suite import it
//   bench, eval, e2e, scripts   the tools: import any package (by its name); nothing imports
//                 bench, eval or e2e
//
// Another package is reached through its package.json "exports" only, a package's code imports
// nothing outside its folder (scripts/, prisma/), and there are no cycles. Where the environment
// may be read is biome.json's rule (noProcessEnv and lint/process-env.grit).
const path = require("node:path");

/** Test code: test folders, the reliability suite, test and spec files. */
const TESTS = ["(^|/)test/", "^apps/web/reliability/", "\\.(test|spec)\\.tsx?$"];
/** The root's test configuration (vitest's setup files name @parley/testing's global setup). */
const TEST_CONFIG = ["^vitest[^/]*\\.ts$"];

/** A package's folder imports only itself and the named packages (test code also @parley/testing). */
function direction(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `^${from}/` },
    to: { path: "^(packages|apps)/", pathNot: [`^${from}/`, "^packages/testing/", ...allowed.map((dir) => `^${dir}/`)] },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "No module reaches itself through its imports (type-only imports count).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    direction("db-imports-no-package", "packages/db", [], "The database package imports no other workspace package."),
    direction("core-imports-only-db", "packages/core", ["packages/db"], "Core imports only the database package."),
    direction("api-imports-core-and-db", "packages/api", ["packages/core", "packages/db"], "The tRPC API imports core and db."),
    direction(
      "web-imports-api-core-db-client-sdk",
      "apps/web",
      ["packages/api", "packages/core", "packages/db", "packages/client", "packages/web-sdk"],
      "The app imports the server packages and the two browser ones.",
    ),
    direction("client-imports-no-package", "packages/client", [], "The HTTP client runs in users' code: no server package."),
    direction("web-sdk-imports-no-package", "packages/web-sdk", [], "The browser SDK runs in pages: no server package."),
    direction("testing-imports-server-packages", "packages/testing", ["packages/api", "packages/core", "packages/db"], "Test support."),
    {
      name: "nothing-imports-tools",
      comment: "bench, eval and e2e are tools: they import packages, never the other way round, nor each other.",
      severity: "error",
      from: { path: "^([^/]+)/" },
      to: { path: "^(bench|eval|e2e)/", pathNot: "^$1/" },
    },
    {
      name: "package-stays-in-its-folder",
      comment:
        "A package's code imports nothing outside its folder but other packages by name (scripts/, prisma/, the root's files). " +
        "Its tests may import the root's scripts they test.",
      severity: "error",
      from: { path: "^((?:packages|apps)/[^/]+)/", pathNot: TESTS },
      to: { path: "^(scripts|prisma)/|^[^/]+\\.[cm]?[jt]sx?$" },
    },
    {
      name: "entry-points-only",
      comment: "Another package is imported by its name and an entry of its package.json exports, never by a path into its folder.",
      severity: "error",
      from: { path: "^((?:packages|apps)/[^/]+|bench|eval|e2e|scripts)/" },
      // A relative path is "local"; a name is "aliased-workspace" (seen from the root's workspaces) or "undetermined".
      to: { path: "^(packages|apps)/", pathNot: "^$1/", dependencyTypes: ["local"], dependencyTypesNot: ["aliased", "aliased-workspace"] },
    },
    {
      name: "entry-points-only-by-name",
      comment: "@parley/<package>/<path> that is not one of the package's exports (a /src/ path, a test file).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, path: "^@parley/" },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that resolves to no file.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: "^@parley/" },
    },
    {
      name: "test-support-only-from-testing",
      comment:
        "Another package's test support (a test/support/ module, a testing.ts) is never imported: @parley/testing holds what is shared.",
      severity: "error",
      from: { path: "^((?:packages|apps)/[^/]+|bench|eval|e2e|scripts)/" },
      to: { path: "(^|/)test/support/|(^|/)testing\\.[cm]?ts$", pathNot: ["^$1/", "^packages/testing/"] },
    },
    {
      name: "testing-only-from-tests",
      comment: "@parley/testing is imported by tests, bench, eval, e2e and the reliability suite only.",
      severity: "error",
      from: { pathNot: [...TESTS, ...TEST_CONFIG, "^(bench|eval|e2e)/", "^packages/testing/"] },
      to: { path: "^packages/testing/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["(^|/)node_modules/", "(^|/)\\.", "(^|/)generated/", "\\.generated\\.ts$", "^bench/results/", "^eval/results/"] },
    tsPreCompilationDeps: true,
    // apps/web's "~/" alias, seen from the root (tsconfig.depcruise.json).
    tsConfig: { fileName: path.join(__dirname, "tsconfig.depcruise.json") },
    // Workspace packages resolve through their package.json "exports", as Node and the bundlers do.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".mjs", ".js", ".cjs", ".d.mts", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
