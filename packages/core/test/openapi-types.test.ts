// An integrator's view of the document: openapi-typescript generates TypeScript types from it (as
// served, via buildOpenApiDocument), and a few real calls written against those types (send a
// message, read a help article, handle the error body, verify a webhook's payload type) pass
// `tsc --strict`, while a deliberately wrong call is refused by the compiler.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.ts";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

/** Real calls, written as an integrator would against the generated types. */
const CALLS = `import type { components, paths, webhooks } from "./schema.js";

type SendMessage = paths["/api/agent/{agentId}/messages"]["post"];
type SendBody = SendMessage["requestBody"]["content"]["application/json"];
type Reply = SendMessage["responses"][200]["content"]["application/json"];
type Unauthorized = SendMessage["responses"][401]["content"]["application/json"];
type ReadArticle = paths["/api/agent/{agentId}/help/articles/{itemId}"]["get"];
type Article = ReadArticle["responses"][200]["content"]["application/json"];
type ErrorBody = components["schemas"]["Error"];

export async function send(baseUrl: string, key: string, agentId: SendMessage["parameters"]["path"]["agentId"]): Promise<string> {
  const body: SendBody = {
    message: "How do I get a refund?",
    visitor: { name: "Ada", email: "ada@example.com" },
    clientVariables: { plan: "pro" },
  };
  const headers: SendMessage["parameters"]["header"] = { "Idempotency-Key": "2f1c7c1e-8d3b-4b0a-9a55-6a0f3e0c9b21" };
  const response = await fetch(\`\${baseUrl}/api/agent/\${agentId}/messages\`, {
    method: "POST",
    headers: { authorization: \`Bearer \${key}\`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (response.status === 401) {
    const error = (await response.json()) as Unauthorized;
    const text: "Missing bearer token" | "HTTP API key not configured" | "Invalid bearer token" = error.error;
    const help: SendMessage["responses"][401]["headers"]["Link"] = '</docs#errors-invalid-bearer-token>; rel="help"';
    return \`\${text} (\${help})\`;
  }
  if (!response.ok) {
    const error = (await response.json()) as ErrorBody;
    return error.details === undefined ? error.error : \`\${error.error}: \${error.details}\`;
  }
  const reply = (await response.json()) as Reply;
  const next: SendBody = { message: "Thanks", conversationId: reply.conversationId };
  const escalated: boolean = reply.status === "escalated" || reply.handoffRequested;
  const links = reply.richContent.flatMap((item) => (item.type === "articles" ? item.articles.map((article) => article.url) : []));
  return [reply.reply, next.conversationId, String(escalated), ...links, String(reply.tokenUsage)].join("\\n");
}

export async function readArticle(baseUrl: string, agentId: string, itemId: string): Promise<string> {
  const params: ReadArticle["parameters"]["path"] = { agentId, itemId };
  const response = await fetch(\`\${baseUrl}/api/agent/\${params.agentId}/help/articles/\${params.itemId}\`);
  if (response.status === 404) {
    const error = (await response.json()) as ReadArticle["responses"][404]["content"]["application/json"];
    const text: "Not found" = error.error;
    return text;
  }
  const { data } = (await response.json()) as Article;
  const updated: Date = new Date(data.updatedAt);
  return \`# \${data.title} (\${data.sourceName}, \${updated.toISOString()})\\n\\n\${data.content}\`;
}

type Escalated = webhooks["conversation.escalated"]["post"]["requestBody"]["content"]["application/json"];
export function onEscalated(event: Escalated): string {
  return \`\${event.type} \${event.data.conversation.id} \${event.data.conversation.status}\`;
}
`;

/** Calls the types must refuse: each line is one mistake an integrator could make. */
const WRONG_CALLS = `import type { paths } from "./schema.js";

type SendMessage = paths["/api/agent/{agentId}/messages"]["post"];
type SendBody = SendMessage["requestBody"]["content"]["application/json"];
type Unauthorized = SendMessage["responses"][401]["content"]["application/json"];

export const withoutMessage: SendBody = { conversationId: "c1" };
export const wrongText: Unauthorized = { error: "Not found" };
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parley-openapi-types-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `tsc --strict --noEmit` on files of the temporary directory: its diagnostics, one a line. */
async function typecheck(files: string[]): Promise<string[]> {
  const args = [TSC, "--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--lib", "es2022,dom"];
  const output = await run(process.execPath, [...args, ...files], { cwd: dir }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  return output.split("\n").filter((line) => /^\S+\(\d+,\d+\): error TS\d+/.test(line));
}

describe("types generated by openapi-typescript from the served document", () => {
  it("type-check real calls under --strict, and refuse wrong ones", async () => {
    const schema = astToString(await openapiTS(buildOpenApiDocument({ appUrl: "https://parley.example.com" }) as OpenAPI3));
    await writeFile(path.join(dir, "schema.ts"), schema);
    await writeFile(path.join(dir, "calls.ts"), CALLS);
    await writeFile(path.join(dir, "wrong.ts"), WRONG_CALLS);

    const diagnostics = await typecheck(["schema.ts", "calls.ts", "wrong.ts"]);
    // The generated types and the real calls compile; only the two deliberate mistakes are errors.
    expect(diagnostics.filter((line) => !line.startsWith("wrong.ts("))).toEqual([]);
    expect(diagnostics).toHaveLength(2);
    expect(diagnostics[0]).toMatch(/^wrong\.ts\(7,14\): error TS2741: Property 'message' is missing/);
    expect(diagnostics[1]).toMatch(/^wrong\.ts\(8,42\): error TS2322: Type '"Not found"' is not assignable/);
  });
});
