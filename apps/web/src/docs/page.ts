// The /docs page: the API reference rendered on the server from the OpenAPI document (readable
// without JavaScript): a navigation, each operation's text beside its code samples (curl, the
// typed client, fetch) with copy buttons, the webhook events and the errors table. Every asset is
// served from our own origin (./assets.ts); no inline script or style.
import { API_VERSION, documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";
import { OPENAPI_PATH } from "../server/routes/openapi.ts";
import { DOCS_ASSETS_PATH } from "./assets.ts";
import { API_KEY_VARIABLE, curlExamples, SESSION_VARIABLE } from "./curl.ts";
import { type ReferenceOperation, referenceOperations } from "./reference.ts";
import { operationSamples } from "./samples.ts";
import { renderErrors, renderOperation, renderWebhooks, type WebhookEntry } from "./sections.ts";
import { blockText, escapeHtml } from "./text.ts";

export { escapeHtml };

interface Tag {
  name: string;
  description: string;
  operations: ReferenceOperation[];
}

function tagsOf(document: OpenApiDocument, operations: ReferenceOperation[]): Tag[] {
  const declared = ((document.tags ?? []) as Array<{ name: string; description?: string }>).map((tag) => ({
    name: tag.name,
    description: tag.description ?? "",
  }));
  return declared
    .map((tag) => ({ ...tag, operations: operations.filter((operation) => operation.tag === tag.name) }))
    .filter((tag) => tag.operations.length > 0);
}

function webhooksOf(document: OpenApiDocument): WebhookEntry[] {
  return Object.entries((document.webhooks ?? {}) as Record<string, { post?: { description?: string } }>).map(([name, item]) => ({
    name,
    description: (item.post?.description ?? "").split(/\n\s*\n/)[0] ?? "",
  }));
}

const tagId = (name: string) => `tag-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

function renderNav(tags: Tag[]): string {
  const groups = tags
    .map(
      (tag) => `<li><a class="nav-group" href="#${tagId(tag.name)}">${escapeHtml(tag.name)}</a>
          <ul>${tag.operations.map((operation) => `<li><a href="#${escapeHtml(operation.id)}">${escapeHtml(operation.summary)}</a></li>`).join("")}</ul>
        </li>`,
    )
    .join("\n");
  return `<nav class="docs-nav" aria-label="API reference">
      <ul>
        <li><a class="nav-group" href="#introduction">Introduction</a></li>
        ${groups}
        <li><a class="nav-group" href="#webhooks">Webhook events</a></li>
        <li><a class="nav-group" href="#errors">Errors</a></li>
      </ul>
    </nav>`;
}

export function renderDocsPage(document: OpenApiDocument): string {
  const operations = referenceOperations(document);
  const curl = curlExamples(document);
  const tags = tagsOf(document, operations);
  const server = documentServerUrl(document);
  const sections = tags
    .map(
      (tag) => `<section class="docs-section" aria-labelledby="${tagId(tag.name)}">
      <h2 id="${tagId(tag.name)}">${escapeHtml(tag.name)}</h2>
      <p>${escapeHtml(tag.description)}</p>
      ${tag.operations.map((operation) => renderOperation(operation, operationSamples(document, operation, curl))).join("\n")}
    </section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Parley API reference</title>
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/docs.css">
  </head>
  <body>
    <a class="skip-link" href="#content">Skip to the reference</a>
    <header class="docs-header">
      <p class="docs-brand"><a href="/docs">Parley API reference</a></p>
      <p>Version ${escapeHtml(API_VERSION)} · Server <code>${escapeHtml(server)}</code> · <a href="${OPENAPI_PATH}">OpenAPI 3.1 document</a></p>
    </header>
    <div class="docs-layout">
    ${renderNav(tags)}
    <main id="content" class="docs-main">
      <section class="docs-section docs-intro" id="introduction" aria-labelledby="introduction-heading">
        <h1 id="introduction-heading">Parley API reference</h1>
        ${blockText(String(document.info?.description ?? ""))}
        <p>The samples read the agent's key from <code>${API_KEY_VARIABLE}</code> (generated in the control panel, shown once:
        <code>export ${API_KEY_VARIABLE}=pk_...</code>); the key routes take the panel's session cookie
        (<code>export ${SESSION_VARIABLE}=...</code>). The typed client is <code>@parley/client</code>, in this repository.</p>
      </section>
${sections}
${renderWebhooks(webhooksOf(document))}
${renderErrors()}
    </main>
    </div>
    <script src="${DOCS_ASSETS_PATH}/docs.js"></script>
  </body>
</html>
`;
}
