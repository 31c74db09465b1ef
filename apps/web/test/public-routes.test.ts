// Which requests the server entry serves directly (src/server/public-routes.ts) and which it
// leaves to Next.js. The handlers themselves are tested through the same table in the other files.
import { describe, expect, it } from "vitest";
import { matchPublicRoute } from "~/server/public-routes.ts";

describe("matchPublicRoute", () => {
  it("takes the four public routes, with decoded path parameters", () => {
    expect(matchPublicRoute("POST", "/api/agent/demo/messages")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/demo/help")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/demo/help/articles")?.params).toEqual(["demo"]);
    expect(matchPublicRoute("GET", "/api/agent/my%20agent/help/articles/art%2Frefunds")?.params).toEqual(["my agent", "art/refunds"]);
  });

  it("leaves everything else to Next: other methods, paths and the session routes", () => {
    for (const [method, path] of [
      ["GET", "/api/agent/demo/messages"],
      ["HEAD", "/api/agent/demo/help"],
      ["POST", "/api/agent/demo/help"],
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
