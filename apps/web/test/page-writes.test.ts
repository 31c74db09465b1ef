// Writes to pages (Next's server actions: accepting an invitation, the help centre's feedback) go
// through the proxy (proxy.ts) first. Next refuses a cross-site one with a bare 500; the proxy
// answers it 403 with the API's error body before Next sees it, and lets the app's own through.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { publicAppUrl } from "~/server/context.ts";
import { proxy } from "../proxy.ts";

function actionPost(path: string, headers: Record<string, string>): NextRequest {
  return new NextRequest(`${publicAppUrl()}${path}`, {
    method: "POST",
    headers: { "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8", ...headers },
    body: '["token",{"name":"Eve","password":"correct horse"}]',
  });
}

describe("a write to a page", () => {
  it("from another site (or a garbled or null Origin) is 403 with the error body", async () => {
    const crossSite: Array<Record<string, string>> = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "not a url" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of crossSite) {
      for (const path of ["/invite/some-token", "/help/demo/articles/art-1"]) {
        const response = proxy(actionPost(path, headers));
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(await response.json()).toEqual({ error: "Forbidden" });
      }
    }
  });

  it("from the app's own origin, or a read from anywhere, goes on to the page", () => {
    const own = proxy(actionPost("/invite/some-token", { origin: new URL(publicAppUrl()).origin }));
    expect(own.status).toBe(200);
    expect(own.headers.get("x-middleware-next")).toBe("1");
    const read = proxy(new NextRequest(`${publicAppUrl()}/invite/some-token`, { headers: { origin: "https://evil.example" } }));
    expect(read.headers.get("x-middleware-next")).toBe("1");
    expect(read.headers.get("content-security-policy")).toContain("nonce-");
  });
});
