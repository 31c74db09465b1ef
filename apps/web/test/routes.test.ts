// The one table of routes (src/server/http/routes.ts): which paths it takes, which of them the
// server entry serves directly in production, and the 405 with Allow for a method a route does
// not serve. The handlers themselves are tested through the same table in the other files.
import type { AppContext } from "@parley/core";
import { describe, expect, it } from "vitest";
import { matchRoute, ROUTES, type Route } from "~/server/http/routes.ts";
import { callRoute } from "./support/routes.ts";

const direct = (Object.values(ROUTES) as Route[]).filter((route) => route.direct);

describe("the table of routes", () => {
  it("takes the four public routes on the direct path, with decoded path parameters", () => {
    expect(matchRoute("/api/agent/demo/messages", direct)).toEqual({ route: ROUTES.messages, params: ["demo"] });
    expect(matchRoute("/api/agent/demo/help", direct)).toEqual({ route: ROUTES.helpCollections, params: ["demo"] });
    expect(matchRoute("/api/agent/demo/help/articles", direct)).toEqual({ route: ROUTES.helpArticles, params: ["demo"] });
    expect(matchRoute("/api/agent/my%20agent/help/articles/art%2Frefunds", direct)).toEqual({
      route: ROUTES.helpArticle,
      params: ["my agent", "art/refunds"],
    });
  });

  it("answers a method a route does not serve with 405, the error body and Allow (HEAD with GET)", async () => {
    for (const [route, method, path, allow] of [
      [ROUTES.messages, "GET", "/api/agent/demo/messages", "POST"],
      [ROUTES.messages, "PUT", "/api/agent/demo/messages", "POST"],
      [ROUTES.helpCollections, "POST", "/api/agent/demo/help", "GET, HEAD"],
      [ROUTES.helpArticle, "DELETE", "/api/agent/demo/help/articles/art-refunds", "GET, HEAD"],
      [ROUTES.httpApiKey, "GET", "/api/agents/demo/http-api-key", "POST, DELETE"],
      [ROUTES.helpSitemap, "POST", "/help/demo/sitemap.xml", "GET, HEAD"],
    ] as const) {
      const response = await callRoute(route, {} as AppContext, new Request(`http://localhost${path}`, { method }), ["demo"]);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      expect(await response.json()).toEqual({ error: "Method not allowed" });
    }
  });

  it("leaves everything else to Next on the direct path: other paths and the session routes", () => {
    for (const path of [
      "/api/agent/demo/help/",
      "/api/agent/demo/help/articles/a/b",
      "/api/agents/demo/http-api-key",
      "/api/health",
      "/help/demo",
      "/help/demo/sitemap.xml",
    ]) {
      expect(matchRoute(path, direct), path).toBeNull();
    }
  });
});
