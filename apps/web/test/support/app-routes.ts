// Every route of the app, read from where each is declared: the pages, route files and metadata
// files (favicon.ico, icon.svg...) under app/ (their folders spell the path, `[name]` a
// parameter, `[...name]` the rest of it) and the routes
// of the table (src/server/http/routes.ts) that the server entry's direct path serves, which have
// no file. Relative imports only: the reliability suite has no `~` alias.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ROUTES, type Route } from "../../src/server/http/routes.ts";

/** apps/web/app */
export const APP_DIR = fileURLToPath(new URL("../../app/", import.meta.url));

export interface AppRoute {
  /** What serves it: a page, a route file or a metadata file under app/, or the server entry's direct path. */
  kind: "page" | "route file" | "file" | "direct";
  /** As app/'s folders spell it, e.g. /help/[agentId]/sitemap.xml. */
  path: string;
  /** The file, relative to app/ (none for a direct route). */
  file?: string;
  /** The table's route (direct routes only). */
  route?: Route;
}

const FILE_KINDS: Record<string, AppRoute["kind"]> = { "page.tsx": "page", "page.ts": "page", "route.ts": "route file" };
/** Next's metadata files, each served at its own name. */
const METADATA_FILE =
  /^(favicon\.ico|(apple-)?icon\d*\.\w+|opengraph-image\.\w+|twitter-image\.\w+|robots\.txt|sitemap\.xml|manifest\.\w+)$/;

/** The pages, route files and metadata files under app/, in path order. */
export function appFiles(): AppRoute[] {
  const found: AppRoute[] = [];
  for (const entry of readdirSync(APP_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const metadata = METADATA_FILE.test(entry.name);
    const kind = metadata ? "file" : FILE_KINDS[entry.name];
    if (!kind) continue;
    const folder = path.relative(APP_DIR, entry.parentPath).split(path.sep).filter(Boolean);
    // Route groups, (name), are no part of the path.
    const segments = folder.filter((segment) => !/^\(.*\)$/.test(segment));
    if (metadata) segments.push(entry.name);
    found.push({ kind, path: `/${segments.join("/")}`, file: [...folder, entry.name].join("/") });
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** The table's routes served by the direct path. */
export function directRoutes(): AppRoute[] {
  return (Object.values(ROUTES) as Route[]).filter((route) => route.direct).map((route) => ({ kind: "direct", path: route.path, route }));
}

/** Every route of the app: app/'s files and the direct routes. */
export function appRoutes(): AppRoute[] {
  return [...appFiles(), ...directRoutes()];
}

/** A URL path for a route's path, each parameter given its value in `values` (by name), else `x`. */
export function samplePath(routePath: string, values: Record<string, string> = {}): string {
  return routePath.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_match, name: string) => encodeURIComponent(values[name] ?? "x"));
}
