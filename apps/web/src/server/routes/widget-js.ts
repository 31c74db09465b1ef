// GET /widget.js: the embeddable chat widget (packages/web-sdk/src/widget.ts, bundled by
// scripts/bundle-widget.mjs). Any site may load the script; only the agent's allowed origins can
// then chat (the WebSocket checks the Origin). Cached for 5 minutes and revalidated by ETag.
import { WIDGET_JS, WIDGET_JS_HASH } from "../../widget/widget-bundle.generated.ts";

const ETAG = `"${WIDGET_JS_HASH}"`;
const HEADERS = {
  "cache-control": "public, max-age=300",
  etag: ETAG,
  "access-control-allow-origin": "*",
  "cross-origin-resource-policy": "cross-origin",
};

export function widgetScriptRoute(request: Request): Response {
  const match = request.headers.get("if-none-match");
  if (match?.split(",").some((tag) => tag.trim() === ETAG)) return new Response(null, { status: 304, headers: HEADERS });
  return new Response(WIDGET_JS, { headers: { ...HEADERS, "content-type": "text/javascript; charset=utf-8" } });
}
