// The operations of the OpenAPI document as /docs shows them: what each accepts (parameters, body
// fields), what it returns, and how it is authenticated. $refs are resolved against the document.
import type { OpenApiDocument } from "@parley/core/openapi";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** The fields of an object (one level down). */
  fields: SchemaField[];
}

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
  example?: string;
}

export interface ReferenceOperation {
  id: string;
  tag: string;
  method: (typeof METHODS)[number];
  path: string;
  summary: string;
  description: string;
  auth: "bearer" | "session" | "none";
  cookieName?: string;
  parameters: ReferenceParameter[];
  body: SchemaField[];
  bodyExamples: Array<{ name: string; summary: string; value: unknown }>;
  responses: Array<{ status: string; description: string }>;
  returns: SchemaField[];
  /** The success response has no body (204). */
  emptySuccess: boolean;
}

type Json = Record<string, unknown>;

function resolve(document: OpenApiDocument, schema: unknown): Json {
  const value = (schema ?? {}) as Json;
  const ref = typeof value.$ref === "string" ? value.$ref : null;
  if (!ref) return value;
  const name = ref.replace("#/components/schemas/", "");
  return resolve(document, (document.components?.schemas as Json | undefined)?.[name]);
}

function typeOf(document: OpenApiDocument, schema: Json): string {
  if (typeof schema.$ref === "string") return schema.$ref.replace("#/components/schemas/", "");
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.type === "array") return `array of ${typeOf(document, resolveItems(document, schema.items))}`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return "one of several shapes";
  return "any";
}

function resolveItems(document: OpenApiDocument, items: unknown): Json {
  const value = (items ?? {}) as Json;
  return typeof value.$ref === "string" ? value : resolve(document, value);
}

export function schemaFields(document: OpenApiDocument, schema: unknown, depth = 0): SchemaField[] {
  const resolved = resolve(document, schema);
  const properties = (resolved.properties ?? {}) as Record<string, Json>;
  const required = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const inner = resolve(document, property);
    return {
      name,
      type: typeOf(document, property),
      required: required.has(name),
      description: String(inner.description ?? property.description ?? ""),
      fields: depth === 0 && inner.type === "object" ? schemaFields(document, inner, depth + 1) : [],
    };
  });
}

function authOf(document: OpenApiDocument, security: unknown): { auth: ReferenceOperation["auth"]; cookieName?: string } {
  const schemes = (document.components?.securitySchemes ?? {}) as unknown as Record<string, Json>;
  for (const requirement of (security ?? []) as Array<Record<string, unknown>>) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (scheme?.type === "http") return { auth: "bearer" };
      if (scheme?.type === "apiKey" && scheme.in === "cookie") return { auth: "session", cookieName: String(scheme.name) };
    }
  }
  return { auth: "none" };
}

function parameterOf(parameter: Json): ReferenceParameter {
  const schema = (parameter.schema ?? {}) as Json;
  const example = parameter.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  return {
    name: String(parameter.name),
    in: String(parameter.in),
    required: parameter.required === true,
    type: typeof schema.type === "string" ? schema.type : "string",
    description: String(parameter.description ?? schema.description ?? ""),
    ...(example === undefined ? {} : { example: String(example) }),
  };
}

export function referenceOperations(document: OpenApiDocument): ReferenceOperation[] {
  const operations: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Json | undefined>)[method];
      if (!operation) continue;
      const json = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.["application/json"];
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const success = Object.entries(responses).find(([status]) => status.startsWith("2"));
      const successSchema = ((success?.[1].content as Record<string, Json> | undefined)?.["application/json"] as Json | undefined)?.schema;
      operations.push({
        id: String(operation.operationId ?? `${method}-${path}`),
        tag: String((operation.tags as string[] | undefined)?.[0] ?? "Other"),
        method,
        path,
        summary: String(operation.summary ?? `${method.toUpperCase()} ${path}`),
        description: String(operation.description ?? ""),
        ...authOf(document, operation.security ?? document.security),
        parameters: ((operation.parameters ?? []) as Json[]).map(parameterOf),
        body: json ? schemaFields(document, json.schema) : [],
        bodyExamples: Object.entries((json?.examples ?? {}) as Record<string, Json>).map(([name, example]) => ({
          name,
          summary: String(example.summary ?? ""),
          value: example.value,
        })),
        responses: Object.entries(responses).map(([status, response]) => ({ status, description: String(response.description ?? "") })),
        returns: successSchema ? schemaFields(document, successSchema) : [],
        emptySuccess: success !== undefined && successSchema === undefined,
      });
    }
  }
  return operations;
}
