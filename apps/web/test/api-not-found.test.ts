// A path under /api/ that no route serves answers as the API does, with its error body (404
// `Not found`, JSON), never Next's HTML 404 page: that page is no API answer, and it went out
// without the pages' Content-Security-Policy (the proxy leaves /api/ out).
import { describe, expect, it } from "vitest";
import { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "../app/api/[...path]/route.ts";
import { appFiles } from "./support/app-routes.ts";

const HANDLERS = { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS };
const METHODS = Object.keys(HANDLERS) as Array<keyof typeof HANDLERS>;

describe("a path under /api/ that no route serves", () => {
  it("is answered by the catch-all route file under app/api/", () => {
    expect(appFiles().map((route) => `${route.kind} ${route.path}`)).toContain("route file /api/[...path]");
  });

  it.each(METHODS)('%s: 404 {"error":"Not found"} as JSON, never cached', async (method) => {
    for (const path of ["/api/nonexistent", "/api/agent/demo/unknown", "/api/panel/foo/bar"]) {
      const request = new Request(`http://localhost:3000${path}`, { method, body: ["GET", "HEAD"].includes(method) ? null : "{}" });
      const response = HANDLERS[method](request);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({ error: "Not found" });
    }
  });
});
