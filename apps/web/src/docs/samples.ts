// Code samples of each operation for /docs, in three languages: curl (./curl.ts), the typed client
// (@parley/client, for the operations it covers) and fetch. All from the OpenAPI document's examples.
import { documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";
import { API_KEY_VARIABLE, type CurlExample, curlExamples, SESSION_VARIABLE } from "./curl.ts";
import type { ReferenceOperation } from "./reference.ts";

export type SampleLanguage = "curl" | "client" | "fetch";

export const SAMPLE_LANGUAGES: Array<{ language: SampleLanguage; label: string }> = [
  { language: "curl", label: "curl" },
  { language: "client", label: "Typed client" },
  { language: "fetch", label: "fetch" },
];

export interface CodeBlock {
  /** The pre's id (the copy button's target). */
  id: string;
  title: string;
  code: string;
}

export type OperationSamples = Partial<Record<SampleLanguage, CodeBlock[]>>;

/** The example values of an operation: path and query parameters, and the first JSON body. */
function exampleValues(operation: ReferenceOperation) {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.example === undefined) continue;
    if (parameter.in === "path") path[parameter.name] = parameter.example;
    if (parameter.in === "query") query[parameter.name] = parameter.example;
  }
  return { path, query, bodies: operation.bodyExamples };
}

const js = (value: unknown) => JSON.stringify(value, null, 2);

/** The typed client's call for the operations it covers. */
function clientCall(operation: ReferenceOperation, body: unknown): string | null {
  const { query, path } = exampleValues(operation);
  switch (operation.id) {
    case "sendMessage":
      return `const reply = await parley.messages.send(${js(body)});`;
    case "listHelpCollections":
      return "const { collections } = await parley.help.collections();";
    case "listHelpArticles":
      return `const { articles } = await parley.help.articles(${js(query)});`;
    case "getHelpArticle":
      return `const article = await parley.help.article(${JSON.stringify(path.itemId ?? "art-refunds")});`;
    default:
      return null;
  }
}

function clientSample(operation: ReferenceOperation, server: string, body: unknown): string | null {
  const call = clientCall(operation, body);
  if (!call) return null;
  const agentId = JSON.stringify(exampleValues(operation).path.agentId ?? "demo");
  const key = operation.auth === "bearer" ? ` apiKey: process.env.${API_KEY_VARIABLE},` : "";
  return [
    'import { Parley } from "@parley/client";',
    "",
    `const parley = new Parley({${key} agentId: ${agentId}, baseUrl: ${JSON.stringify(server)} });`,
    call,
  ].join("\n");
}

function fetchSample(operation: ReferenceOperation, url: string, body: unknown): string {
  const headers: string[] = [];
  if (operation.auth === "bearer") headers.push(`    Authorization: \`Bearer \${process.env.${API_KEY_VARIABLE}}\`,`);
  if (operation.auth === "session" && operation.cookieName) {
    headers.push(`    Cookie: \`${operation.cookieName}=\${process.env.${SESSION_VARIABLE}}\`,`);
  }
  if (body !== undefined) headers.push('    "Content-Type": "application/json",');
  const options = [
    ...(operation.method === "get" ? [] : [`  method: "${operation.method.toUpperCase()}",`]),
    ...(headers.length > 0 ? ["  headers: {", ...headers, "  },"] : []),
    ...(body === undefined ? [] : [`  body: JSON.stringify(${js(body).replaceAll("\n", "\n  ")}),`]),
  ];
  const call =
    options.length > 0 ? `await fetch(${JSON.stringify(url)}, {\n${options.join("\n")}\n});` : `await fetch(${JSON.stringify(url)});`;
  const read = operation.emptySuccess ? "console.log(response.status); // 204" : "const data = await response.json();";
  return `const response = ${call}\n${read}`;
}

/** The curl, client and fetch samples of one operation (one block per body example). */
export function operationSamples(document: OpenApiDocument, operation: ReferenceOperation, curl: CurlExample[]): OperationSamples {
  const server = documentServerUrl(document).replace(/\/$/, "");
  const examples = curl.filter((example) => example.id === operation.id || example.id.startsWith(`${operation.id}-`));
  const bodies = operation.bodyExamples.length > 0 ? operation.bodyExamples : [{ name: "", summary: "", value: undefined }];
  const url = examples[0] ? (/"([^"]+)"/.exec(examples[0].command)?.[1] ?? server) : server;
  const blocks = (language: SampleLanguage, render: (body: unknown) => string | null): CodeBlock[] =>
    bodies.flatMap((body) => {
      const code = render(body.value);
      const suffix = body.name ? `-${body.name}` : "";
      return code === null ? [] : [{ id: `${language}-${operation.id}${suffix}`, title: body.summary || operation.summary, code }];
    });
  const samples: OperationSamples = {
    curl: examples.map((example) => ({ id: `curl-${example.id}`, title: example.title, code: example.command })),
    fetch: blocks("fetch", (body) => fetchSample(operation, url, body)),
  };
  const client = blocks("client", (body) => clientSample(operation, server, body));
  if (client.length > 0) samples.client = client;
  return samples;
}

export { curlExamples };
