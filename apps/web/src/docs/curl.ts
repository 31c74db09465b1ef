// Copyable curl commands for the /docs page, derived from the OpenAPI document alone: its server,
// each operation's path and query parameter examples, its security scheme, and each request body
// example. Secrets are shell variables the reader exports first.
import { documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";

export interface CurlExample {
  /** Stable id for the page (anchor and copy target). */
  id: string;
  title: string;
  command: string;
}

export const API_KEY_VARIABLE = "PARLEY_API_KEY";
export const SESSION_VARIABLE = "PARLEY_SESSION";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface ParameterLike {
  in?: string;
  name?: string;
  example?: unknown;
  schema?: { examples?: unknown[] };
}

interface OperationLike {
  operationId?: string;
  summary?: string;
  parameters?: ParameterLike[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content?: Record<string, { examples?: Record<string, { summary?: string; value?: unknown }> }> };
}

/** Single-quotes a value for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function exampleOf(parameter: ParameterLike): string | undefined {
  const value = parameter.example ?? parameter.schema?.examples?.[0];
  return value === undefined ? undefined : String(value);
}

export function curlExamples(document: OpenApiDocument): CurlExample[] {
  const server = documentServerUrl(document).replace(/\/$/, "");
  const securitySchemes = (document.components?.securitySchemes ?? {}) as Record<string, { type?: string; in?: string; name?: string }>;
  const examples: CurlExample[] = [];

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, OperationLike | undefined>)[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];

      let url = path;
      for (const parameter of parameters.filter((p) => p.in === "path")) {
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(exampleOf(parameter) ?? `<${parameter.name}>`));
      }
      const query = new URLSearchParams();
      for (const parameter of parameters.filter((p) => p.in === "query")) {
        const value = exampleOf(parameter);
        if (value !== undefined && parameter.name) query.set(parameter.name, value);
      }
      const target = `${server}${url}${query.size > 0 ? `?${query}` : ""}`;

      const auth: string[] = [];
      for (const requirement of operation.security ?? document.security ?? []) {
        for (const name of Object.keys(requirement)) {
          const scheme = securitySchemes[name];
          if (scheme?.type === "http") auth.push(`-H "Authorization: Bearer $${API_KEY_VARIABLE}"`);
          if (scheme?.type === "apiKey" && scheme.in === "cookie") auth.push(`-b "${scheme.name}=$${SESSION_VARIABLE}"`);
          if (scheme?.type === "apiKey" && scheme.in === "header") auth.push(`-H "${scheme.name}: $${API_KEY_VARIABLE}"`);
        }
      }

      const id = operation.operationId ?? `${method}-${path}`;
      const title = operation.summary ?? `${method.toUpperCase()} ${path}`;
      const bodies = Object.entries(operation.requestBody?.content?.["application/json"]?.examples ?? {});
      // curl sends GET without a body and POST with -d; anything else is named.
      const implied = method === "get" || (method === "post" && bodies.length > 0);
      const head = `curl -s${implied ? "" : ` -X ${method.toUpperCase()}`} "${target}"`;

      if (bodies.length === 0) {
        examples.push({ id, title, command: join([head, ...auth]) });
        continue;
      }
      for (const [name, example] of bodies) {
        examples.push({
          id: `${id}-${name}`,
          title: example.summary ? `${title}: ${example.summary}` : title,
          command: join([head, ...auth, `-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(example.value))}`]),
        });
      }
    }
  }
  return examples;
}

/** One option per line, so long commands stay readable and still paste as one. */
function join(lines: string[]): string {
  return lines.join(" \\\n  ");
}
