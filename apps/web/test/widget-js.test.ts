// GET /widget.js: the committed bundle is the current build of the widget, and the route
// serves it as cacheable JavaScript any site may load.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { widgetScriptRoute } from "~/server/routes/widget-js.ts";
import { bundleWidget, WIDGET_MODULE } from "../../../scripts/bundle-widget.mjs";

describe("/widget.js", () => {
  it("is up to date with the SDK and widget sources (run `npm run widget:bundle`)", async () => {
    const { module } = (await bundleWidget()) as { module: string };
    expect(readFileSync(WIDGET_MODULE as string, "utf8")).toBe(module);
  });

  it("serves the bundle with caching and revalidation headers", async () => {
    const response = widgetScriptRoute(new Request("http://localhost/widget.js"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await response.text();
    expect(body).toContain("parley.v1");
    expect(body).toContain("attachShadow");

    const etag = response.headers.get("etag") as string;
    const again = widgetScriptRoute(new Request("http://localhost/widget.js", { headers: { "if-none-match": etag } }));
    expect(again.status).toBe(304);
  });
});
