// The /docs page's assets, all from our own origin: Swagger UI's bundle and stylesheet streamed from
// the installed swagger-ui-dist package, and the page's own small script and stylesheet. Only the
// names below are served.
import { createReadStream, existsSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

export const DOCS_ASSETS_PATH = "/docs/assets";

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/**
 * Starts Swagger UI on the document, and wires the copy buttons of the curl examples. Swagger UI's
 * deep linking rewrites any fragment into its own form ("#/errors-..."), so a link to an error's
 * anchor (an error response's Link header) is taken first and shown again once it has started.
 */
const DOCS_SCRIPT = `"use strict";
(function () {
  var fragment = decodeURIComponent(location.hash.slice(1));
  function showPageAnchor() {
    if (fragment.indexOf("errors-") !== 0) return;
    var target = document.getElementById(fragment);
    if (!target) return;
    history.replaceState(null, "", "#" + fragment);
    target.scrollIntoView();
  }
  var root = document.getElementById("swagger-ui");
  if (root && window.SwaggerUIBundle) {
    window.SwaggerUIBundle({
      url: root.getAttribute("data-url"),
      dom_id: "#swagger-ui",
      deepLinking: true,
      validatorUrl: null,
      defaultModelsExpandDepth: 1,
      displayRequestDuration: true,
      onComplete: showPageAnchor,
    });
  }
  showPageAnchor();
  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target) return;
      var done = function (label) {
        button.textContent = label;
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(target.textContent).then(function () { done("Copied"); }, function () { selectText(target); done("Press Ctrl+C"); });
      } else {
        selectText(target);
        done("Press Ctrl+C");
      }
    });
  });
})();
`;

const DOCS_STYLE = `body { margin: 0; font-family: system-ui, sans-serif; color: #1f2933; }
.docs-header, .curl-examples, .errors { max-width: 1460px; margin: 0 auto; padding: 0 20px; }
.docs-header h1 { margin: 24px 0 4px; }
.docs-header p { margin: 0 0 16px; color: #52606d; }
.curl-examples h2 { margin: 16px 0 8px; }
.curl-example h3 { font-size: 1rem; margin: 16px 0 6px; }
.curl-example .code { position: relative; }
.curl-example pre { margin: 0; padding: 12px 88px 12px 12px; background: #1f2933; color: #f5f7fa; border-radius: 6px; overflow-x: auto; font-size: 13px; line-height: 1.5; }
.curl-example button.copy { position: absolute; top: 8px; right: 8px; padding: 4px 12px; border: 1px solid #9aa5b1; border-radius: 4px; background: #f5f7fa; color: #1f2933; cursor: pointer; font: inherit; font-size: 13px; }
.curl-example button.copy:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.errors h2 { margin: 24px 0 8px; }
.errors .table-scroll { overflow-x: auto; }
.errors table { border-collapse: collapse; width: 100%; font-size: 14px; }
.errors th, .errors td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid #cbd2d9; }
.errors thead th { border-bottom: 2px solid #9aa5b1; }
.errors tbody tr:target { background: #fff3c4; }
.errors code { font-size: 13px; }
/* A phone: each error as a card of labelled lines rather than a table five columns wide. */
@media (max-width: 700px) {
  .errors thead { display: none; }
  .errors tr { display: block; padding: 8px 0; border-bottom: 1px solid #cbd2d9; }
  .errors th, .errors td { display: block; border: 0; padding: 2px 10px; }
  .errors td::before { content: attr(data-label) ": "; font-weight: 600; }
}
`;

type SwaggerUiFile = "swagger-ui-bundle.js" | "swagger-ui.css";

interface Asset {
  contentType: string;
  /** A file of swagger-ui-dist, or the content itself. */
  file?: SwaggerUiFile;
  content?: string;
}

const ASSETS: Record<string, Asset> = {
  "swagger-ui-bundle.js": { contentType: JS, file: "swagger-ui-bundle.js" },
  "swagger-ui.css": { contentType: CSS, file: "swagger-ui.css" },
  "docs.js": { contentType: JS, content: DOCS_SCRIPT },
  "docs.css": { contentType: CSS, content: DOCS_STYLE },
};

/**
 * A file of the installed swagger-ui-dist: in node_modules of the working directory (the
 * repository root under `npm start` and in tests), else of the repository root seen from apps/web
 * (`npm run dev`). Not require.resolve, which the bundler turns into a module id; each path is
 * spelled out so the bundler's file tracing picks up just these files.
 */
export function swaggerUiFile(name: SwaggerUiFile): string {
  const fromRoot =
    name === "swagger-ui.css"
      ? path.join(process.cwd(), "node_modules/swagger-ui-dist/swagger-ui.css")
      : path.join(process.cwd(), "node_modules/swagger-ui-dist/swagger-ui-bundle.js");
  if (existsSync(fromRoot)) return fromRoot;
  return name === "swagger-ui.css"
    ? path.join(process.cwd(), "../../node_modules/swagger-ui-dist/swagger-ui.css")
    : path.join(process.cwd(), "../../node_modules/swagger-ui-dist/swagger-ui-bundle.js");
}

/** The asset's response, or null for a name that is not served. */
export function docsAssetResponse(name: string): Response | null {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return null;
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": "public, max-age=3600",
    "x-content-type-options": "nosniff",
  };
  if (asset.content !== undefined) return new Response(asset.content, { headers });
  const file = swaggerUiFile(asset.file!);
  headers["content-length"] = String(statSync(file).size);
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers });
}
