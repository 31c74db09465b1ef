// The HTML of the reference's parts: an operation (its text beside its code samples, in tabs per
// language), the webhooks and the errors table.
import { ERROR_CODES, ERROR_DOCS, ERRORS, errorDocsAnchor, errorDocsLink } from "@parley/core";
import type { ReferenceOperation, SchemaField } from "./reference.ts";
import { type CodeBlock, type OperationSamples, SAMPLE_LANGUAGES } from "./samples.ts";
import { blockText, escapeHtml, inline } from "./text.ts";

const AUTH_TEXT: Record<ReferenceOperation["auth"], string> = {
  bearer: "The agent's API key: <code>Authorization: Bearer pk_...</code>",
  session: "The control panel's session cookie (from the app's own origin only)",
  none: "None: public",
};

function fieldList(fields: SchemaField[], extra?: (field: SchemaField) => string): string {
  if (fields.length === 0) return "";
  const items = fields
    .map(
      (field) => `<div class="field-row">
            <dt><code class="field-name">${escapeHtml(field.name)}</code> <span class="field-type">${escapeHtml(field.type)}</span>${
              field.required ? ' <span class="field-required">required</span>' : ""
            }${extra ? extra(field) : ""}</dt>
            <dd>${inline(field.description)}${field.fields.length > 0 ? fieldList(field.fields) : ""}</dd>
          </div>`,
    )
    .join("\n");
  return `<dl class="fields">\n${items}\n</dl>`;
}

function parameterList(operation: ReferenceOperation): string {
  const fields = operation.parameters.map((parameter) => ({
    name: parameter.name,
    type: `${parameter.type}, ${parameter.in}`,
    required: parameter.required,
    description: parameter.description,
    fields: [],
  }));
  return fields.length > 0 ? `<h4>Parameters</h4>\n${fieldList(fields)}` : "";
}

function responseList(operation: ReferenceOperation): string {
  const rows = operation.responses
    .map(
      (response) =>
        `<div class="field-row"><dt><span class="status status-${escapeHtml(response.status.charAt(0))}xx">${escapeHtml(
          response.status,
        )}</span></dt><dd>${blockText(response.description)}</dd></div>`,
    )
    .join("\n");
  return `<h4>Responses</h4>\n<dl class="fields responses">\n${rows}\n</dl>`;
}

function codeBlock(block: CodeBlock, showTitle: boolean): string {
  const title = escapeHtml(block.title);
  return `${showTitle ? `<p class="code-title">${title}</p>` : ""}<div class="code">
          <pre id="${escapeHtml(block.id)}"><code>${escapeHtml(block.code)}</code></pre>
          <button type="button" class="copy" data-copy="${escapeHtml(block.id)}" aria-label="Copy: ${title}">Copy</button>
        </div>`;
}

/** Tabs per language (ARIA tabs once the script runs; without it, every language one under another). */
function sampleTabs(operation: ReferenceOperation, samples: OperationSamples): string {
  const languages = SAMPLE_LANGUAGES.filter(({ language }) => (samples[language]?.length ?? 0) > 0);
  const id = escapeHtml(operation.id);
  const tabs = languages
    .map(
      ({ language, label }, index) =>
        `<button type="button" role="tab" id="tab-${id}-${language}" aria-controls="panel-${id}-${language}" aria-selected="${
          index === 0
        }" tabindex="${index === 0 ? 0 : -1}" data-language="${language}">${escapeHtml(label)}</button>`,
    )
    .join("");
  const panels = languages
    .map(({ language }) => {
      const blocks = samples[language] ?? [];
      return `<div class="sample-panel" role="tabpanel" id="panel-${id}-${language}" aria-labelledby="tab-${id}-${language}" data-language="${language}">
        ${blocks.map((block) => codeBlock(block, blocks.length > 1)).join("\n")}
      </div>`;
    })
    .join("\n");
  return `<div class="samples">
      <div class="sample-tabs" role="tablist" aria-label="Code samples: ${escapeHtml(operation.summary)}">${tabs}</div>
      ${panels}
    </div>`;
}

export function renderOperation(operation: ReferenceOperation, samples: OperationSamples): string {
  const id = escapeHtml(operation.id);
  return `<section class="endpoint" id="${id}" aria-labelledby="${id}-heading">
    <div class="endpoint-text">
      <h3 id="${id}-heading">${escapeHtml(operation.summary)}</h3>
      <p class="endpoint-route"><span class="method method-${operation.method}">${operation.method.toUpperCase()}</span> <code>${escapeHtml(
        operation.path,
      )}</code></p>
      <p class="endpoint-auth"><strong>Authentication:</strong> ${AUTH_TEXT[operation.auth]}</p>
      ${blockText(operation.description)}
      ${parameterList(operation)}
      ${operation.body.length > 0 ? `<h4>Request body (JSON)</h4>\n${fieldList(operation.body)}` : ""}
      ${operation.returns.length > 0 ? `<h4>Returns</h4>\n${fieldList(operation.returns)}` : ""}
      ${responseList(operation)}
    </div>
    <div class="endpoint-code">
      ${sampleTabs(operation, samples)}
    </div>
  </section>`;
}

export interface WebhookEntry {
  name: string;
  description: string;
}

export function renderWebhooks(webhooks: WebhookEntry[]): string {
  const rows = webhooks
    .map(
      (webhook) =>
        `<div class="field-row" id="webhook-${escapeHtml(webhook.name.replaceAll(".", "-"))}"><dt><code class="field-name">${escapeHtml(
          webhook.name,
        )}</code></dt><dd>${blockText(webhook.description)}</dd></div>`,
    )
    .join("\n");
  return `<section class="docs-section" id="webhooks" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhook events</h2>
      <p>Parley POSTs these events to the endpoints you add in the control panel (Webhooks), signed with the Standard Webhooks
      headers and retried until your server answers 2xx. The <a href="/api/openapi.json">OpenAPI document</a> has each body's schema.</p>
      <dl class="fields">
${rows}
      </dl>
    </section>`;
}

/**
 * The Errors section: one row per entry of the error table, its id the stable anchor that every
 * REST error response links in its `Link` header.
 */
export function renderErrors(): string {
  const rows = ERROR_CODES.map((code) => {
    const anchor = errorDocsAnchor(code);
    return `              <tr id="${anchor}">
                <th scope="row"><a href="#${anchor}"><code>${escapeHtml(anchor.replace(/^errors-/, ""))}</code></a></th>
                <td data-label="Status">${ERRORS[code].status}</td>
                <td data-label="error"><code>${escapeHtml(ERRORS[code].message)}</code></td>
                <td data-label="Meaning">${inline(ERROR_DOCS[code].meaning)}</td>
                <td data-label="What to do">${inline(ERROR_DOCS[code].action)}</td>
              </tr>`;
  }).join("\n");
  return `      <section class="docs-section errors" id="errors" aria-labelledby="errors-heading">
        <h2 id="errors-heading">Errors</h2>
        <p>Every error has the body <code>{"error": "&lt;short message&gt;", "details": "&lt;optional&gt;"}</code> and a
        <code>Link</code> header to its entry below, e.g. <code>${escapeHtml(errorDocsLink("RATE_LIMITED"))}</code>.</p>
        <table>
          <thead>
            <tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col"><code>error</code></th><th scope="col">Meaning</th><th scope="col">What to do</th></tr>
          </thead>
          <tbody>
${rows}
          </tbody>
        </table>
      </section>`;
}
