// Validates bodies and headers against the OpenAPI document with ajv (JSON Schema 2020-12, the
// dialect of OpenAPI 3.1), resolving the document's own $refs. Shared by the document's tests, the
// conformance test of the routes and the typed client's tests.

import type { OpenApiDocument } from "@parley/core/openapi";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

const DOCUMENT_ID = "https://parley.invalid/openapi.json";

/**
 * OpenAPI's additions to JSON Schema, and the document's own members (ajv resolves a $ref into the
 * document through its root): known to ajv, not validated.
 */
const OPENAPI_KEYWORDS = [
  "discriminator",
  "xml",
  "externalDocs",
  "example",
  "openapi",
  "info",
  "servers",
  "paths",
  "components",
  "tags",
  "security",
  "webhooks",
  "jsonSchemaDialect",
];

/** Headers Parley sets that the document must mention wherever they are sent. */
export const TRACKED_HEADERS = [
  "cache-control",
  "ratelimit-policy",
  "ratelimit",
  "retry-after",
  "www-authenticate",
  "x-request-id",
  "idempotent-replayed",
  "allow",
  "link",
] as const;

type Json = Record<string, unknown>;

interface HeaderObject {
  required?: boolean;
  schema?: Json;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: Json; examples?: Record<string, { value: unknown }> }>;
}

export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

export interface DocumentValidator {
  document: OpenApiDocument;
  /** The response object of an operation for a status, or undefined when it is not documented. */
  response(path: string, method: string, status: number): ResponseObject | undefined;
  /** Validates a JSON body against the documented schema of that response. */
  validateBody(path: string, method: string, status: number, body: unknown): ValidationResult;
  /** Required headers present, every documented header valid, no tracked header undocumented. */
  validateHeaders(path: string, method: string, status: number, headers: Headers): ValidationResult;
  /** Validates a value against the schema at a JSON pointer of the document (e.g. a request body). */
  validateAt(pointer: string, value: unknown): ValidationResult;
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function pointer(...segments: Array<string | number>): string {
  return `#/${segments.map((segment) => escapePointer(String(segment))).join("/")}`;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => `${error.instancePath || "(root)"} ${error.message ?? ""} ${JSON.stringify(error.params)}`);
}

export function createDocumentValidator(document: OpenApiDocument): DocumentValidator {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  ajv.addSchema(document as unknown as Json, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();

  function validatorAt(ref: string): ValidateFunction {
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${ref}` });
      compiled.set(ref, validate);
    }
    return validate;
  }

  function validateAt(ref: string, value: unknown): ValidationResult {
    const validate = validatorAt(ref);
    const valid = validate(value) as boolean;
    return { valid, errors: describe(validate.errors) };
  }

  function response(path: string, method: string, status: number): ResponseObject | undefined {
    const operation = (document.paths?.[path] as Record<string, { responses?: Record<string, ResponseObject> }> | undefined)?.[method];
    return operation?.responses?.[String(status)];
  }

  return {
    document,
    response,
    validateAt,
    validateBody(path, method, status, body) {
      const documented = response(path, method, status);
      if (!documented) return { valid: false, errors: [`${method.toUpperCase()} ${path} does not document ${status}`] };
      if (!documented.content?.["application/json"]?.schema) {
        return body === undefined ? { valid: true, errors: [] } : { valid: false, errors: [`${status} documents no body`] };
      }
      return validateAt(pointer("paths", path, method, "responses", String(status), "content", "application/json", "schema"), body);
    },
    validateHeaders(path, method, status, headers) {
      const documented = response(path, method, status);
      if (!documented) return { valid: false, errors: [`${method.toUpperCase()} ${path} does not document ${status}`] };
      const errors: string[] = [];
      const names = new Set<string>();
      for (const [name, header] of Object.entries(documented.headers ?? {})) {
        names.add(name.toLowerCase());
        const value = headers.get(name);
        if (value === null) {
          if (header.required) errors.push(`missing required header ${name}`);
          continue;
        }
        if (!header.schema) continue;
        const typed = header.schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
        const result = validateAt(pointer("paths", path, method, "responses", String(status), "headers", name, "schema"), typed);
        if (!result.valid) errors.push(`header ${name}: ${JSON.stringify(value)} ${result.errors.join(", ")}`);
      }
      for (const name of TRACKED_HEADERS) {
        if (headers.has(name) && !names.has(name)) errors.push(`header ${name} is sent but not documented`);
      }
      return { valid: errors.length === 0, errors };
    },
  };
}
