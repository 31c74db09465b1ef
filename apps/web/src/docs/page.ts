// The /docs page: Swagger UI over /api/openapi.json, and above it copyable curl commands rendered
// on the server from the document's examples (readable without JavaScript). Every asset is served
// from our own origin (./assets.ts); no inline script or style.
import { ERROR_CODES, ERROR_DOCS, ERRORS, errorDocsAnchor, errorDocsLink } from "@parley/core";
import { API_VERSION, documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";
import { OPENAPI_PATH } from "../server/routes/openapi.ts";
import { DOCS_ASSETS_PATH } from "./assets.ts";
import { API_KEY_VARIABLE, curlExamples, SESSION_VARIABLE } from "./curl.ts";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Escapes a text and renders its `backquoted` spans as code. */
function withCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/**
 * The Errors section: one row per entry of the error table, its id the stable anchor that every
 * REST error response links in its `Link` header.
 */
function renderErrors(): string {
  const rows = ERROR_CODES.map((code) => {
    const anchor = errorDocsAnchor(code);
    return `              <tr id="${anchor}">
                <th scope="row"><a href="#${anchor}"><code>${escapeHtml(anchor.replace(/^errors-/, ""))}</code></a></th>
                <td data-label="Status">${ERRORS[code].status}</td>
                <td data-label="error"><code>${escapeHtml(ERRORS[code].message)}</code></td>
                <td data-label="Meaning">${withCode(ERROR_DOCS[code].meaning)}</td>
                <td data-label="What to do">${withCode(ERROR_DOCS[code].action)}</td>
              </tr>`;
  }).join("\n");
  return `      <section class="errors" id="errors" aria-labelledby="errors-heading">
        <h2 id="errors-heading">Errors</h2>
        <p>Every error has the body <code>{"error": "&lt;short message&gt;", "details": "&lt;optional&gt;"}</code> and a
        <code>Link</code> header to its entry below, e.g. <code>${escapeHtml(errorDocsLink("RATE_LIMITED"))}</code>.</p>
        <div class="table-scroll">
          <table>
            <thead>
              <tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col"><code>error</code></th><th scope="col">Meaning</th><th scope="col">What to do</th></tr>
            </thead>
            <tbody>
${rows}
            </tbody>
          </table>
        </div>
      </section>`;
}

export function renderDocsPage(document: OpenApiDocument): string {
  const examples = curlExamples(document)
    .map(
      (example) => `      <article class="curl-example" id="${escapeHtml(example.id)}">
        <h3>${escapeHtml(example.title)}</h3>
        <div class="code">
          <pre id="curl-${escapeHtml(example.id)}"><code>${escapeHtml(example.command)}</code></pre>
          <button type="button" class="copy" data-copy="curl-${escapeHtml(example.id)}" aria-label="Copy: ${escapeHtml(example.title)}">Copy</button>
        </div>
      </article>`,
    )
    .join("\n");
  const server = documentServerUrl(document);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Parley API reference</title>
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/docs.css">
  </head>
  <body>
    <header class="docs-header">
      <h1>Parley API reference</h1>
      <p>Version ${escapeHtml(API_VERSION)} · Server <code>${escapeHtml(server)}</code> · <a href="${OPENAPI_PATH}">OpenAPI 3.1 document</a></p>
    </header>
    <main>
      <section class="curl-examples" aria-labelledby="curl-heading">
        <h2 id="curl-heading">Try it with curl</h2>
        <p>Export the agent's key first (<code>export ${API_KEY_VARIABLE}=pk_...</code>, generated in the control panel); the key routes
        take the panel's session cookie (<code>export ${SESSION_VARIABLE}=...</code>).</p>
${examples}
      </section>
${renderErrors()}
      <section aria-label="Reference">
        <div id="swagger-ui" data-url="${OPENAPI_PATH}"></div>
        <noscript><p>The interactive reference needs JavaScript; the <a href="${OPENAPI_PATH}">OpenAPI document</a> has everything.</p></noscript>
      </section>
    </main>
    <script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_ASSETS_PATH}/docs.js"></script>
  </body>
</html>
`;
}
