// One map of routes, one path per URL: the table of routes (src/server/http/routes.ts) and app/'s
// files never both claim a URL. A route the direct path serves has no file under app/ (the server
// entry answers it before Next, in development and production alike) and shadows no page or route
// file; every other route of the table is served by its one-line route file at its path. The
// proxy's matcher (page CSP, cross-site page writes) takes every page and none of the direct
// routes, which are API routes it leaves out on either path.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES, type Route } from "~/server/http/routes.ts";
import { config as proxyConfig } from "../proxy.ts";
import { APP_DIR, appFiles, directRoutes, samplePath } from "./support/app-routes.ts";

const tableRoutes = Object.entries(ROUTES) as Array<[string, Route]>;

describe("the table of routes and app/", () => {
  it("lists the pages and route files under app/", () => {
    const paths = appFiles().map((route) => `${route.kind} ${route.path}`);
    expect(paths).toContain("page /help/[agentId]/articles/[itemId]");
    expect(paths).toContain("route file /api/trpc/[trpc]");
    expect(paths).toContain("route file /help/[agentId]/sitemap.xml");
  });

  it("serves the four public REST routes on the direct path", () => {
    expect(directRoutes().map((route) => route.path)).toEqual([
      "/api/agent/[agentId]/messages",
      "/api/agent/[agentId]/help",
      "/api/agent/[agentId]/help/articles",
      "/api/agent/[agentId]/help/articles/[itemId]",
    ]);
  });

  it("has no file under app/ for a direct route, and no file there that a direct route would shadow", () => {
    for (const file of appFiles()) {
      const url = samplePath(file.path);
      for (const route of directRoutes()) {
        expect(file.path, `${file.file} is served by the direct path instead`).not.toBe(route.path);
        expect(route.route!.pattern.test(url), `${file.file} (${url}) is taken by the direct route ${route.path}`).toBe(false);
      }
    }
  });

  it("serves every other route of the table by its one-line route file at its path", () => {
    for (const [name, route] of tableRoutes.filter(([, route]) => !route.direct)) {
      const file = path.join(APP_DIR, route.path, "route.ts");
      expect(readFileSync(file, "utf8"), `${route.path}: app${route.path}/route.ts`).toContain(`= routeFile(ROUTES.${name});`);
    }
  });

  it("matches each path as app/ spells it: one segment per parameter, the rest literally", () => {
    for (const [, route] of tableRoutes) {
      expect(route.pattern.test(samplePath(route.path, { agentId: "demo", agent_id: "demo", itemId: "art-refunds" })), route.path).toBe(
        true,
      );
      // A parameter takes one segment (a route without parameters has nothing to replace).
      if (route.path.includes("[")) expect(route.pattern.test(route.path.replace(/\[[^\]]+\]/g, "a/b")), route.path).toBe(false);
    }
    expect(ROUTES.helpSitemap.pattern.test("/help/demo/sitemapxxml")).toBe(false);
  });
});

describe("the proxy's matcher", () => {
  // Next reads the matcher as a path-to-regexp pattern; this one is a single regular expression
  // group, which reads the same as a JavaScript regular expression over the whole path.
  const matcher = new RegExp(`^${(proxyConfig.matcher as string[])[0]}$`);

  it("takes every page, so each gets its CSP and the cross-site write check", () => {
    for (const page of appFiles().filter((file) => file.kind === "page")) {
      expect(matcher.test(samplePath(page.path)), page.path).toBe(true);
    }
  });

  it("leaves out the direct routes (API routes: it would leave them out on Next's path too)", () => {
    for (const route of directRoutes()) expect(matcher.test(samplePath(route.path)), route.path).toBe(false);
  });
});
