// @parley/core: the rules of Parley, shared by the REST routes, the panel's tRPC procedures and
// the widget's WebSocket. This entry holds the platform every module uses (errors, logging, rate
// limits, the context) and the app's whole context type; each module has an entry of its own
// (package.json "exports"; docs/contributors/architecture.md has the map). Core's own files import
// each other by path, never through this entry.
export type { AppContext } from "./app-context.ts";
export { ERROR_CODES, ERROR_DOCS, ERROR_TABLES, ERRORS, type ErrorCode } from "./error-table.ts";
export * from "./platform/index.ts";
