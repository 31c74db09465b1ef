// Which requests the server entry serves directly (src/server/public-routes.ts) and which it
// leaves to Next.js. The handlers themselves are tested through the same table in the other files.
import type { AppContext } from "@parley/core";
import { describe, expect, it } from "vitest";
import { matchPublicRoute } from "~/server/public-routes.ts";

describe("matchPublicRoute", () => {
  it("takes the four public routes, with decoded path parameters", () => {
    expect(matchPublicRoute("POST", "/api/agent/demo/messages")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/demo/help")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/demo/help/articles")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/my%20agent/help/articles/art%2Frefunds")?.params).toEqual(["my agent", "art/refunds"]);
  });

  it("takes HEAD on the help routes as GET, and answers other methods on these paths itself (405)", async () => {
    expect(matchPublicRoute("HEAD", "/api/agent/demo/help")?.params).toEqual(["demo"]);
    for (const [method, path, allow] of [
      ["GET", "/api/agent/demo/messages", "POST"],
      ["PUT", "/api/agent/demo/messages", "POST"],
      ["POST", "/api/agent/demo/help", "GET, HEAD"],
      ["DELETE", "/api/agent/demo/help/articles/art-refunds", "GET, HEAD"],
    ] as const) {
      const route = matchPublicRoute(method, path);
      const response = await route!.handler({} as AppContext, new Request(`http://localhost${path}`, { method }), route!.params);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
    }
  });

  it("leaves everything else to Next: other paths and the session routes", () => {
    for (const [method, path] of [
      ["GET", "/api/agent/demo/help/"],
      ["GET", "/api/agent/demo/help/articles/a/b"],
      ["POST", "/api/agents/demo/http-api-key"],
      ["GET", "/api/health"],
      ["GET", "/help/demo"],
    ] as const) {
      expect(matchPublicRoute(method, path), `${method} ${path}`).toBeNull();
    }
  });
});
