// The /docs API reference: an HTML page rendered on the server from the OpenAPI document (every
// operation with its parameters, body and responses, and code samples in curl, the typed client
// and fetch with copy buttons); the asset routes serve its own script and stylesheet. The curl examples are then run, as
// a reader would paste them, against the app over real HTTP, and their answers checked against the
// document.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ERROR_DOCS, ERRORS, type ErrorCode, errorDocsAnchor } from "@parley/core";
import { generateAgentKey } from "@parley/core/agents";
import { buildOpenApiDocument } from "@parley/core/openapi";
import { startSession } from "@parley/core/people";
import type { TestContext } from "@parley/testing/context";
import { createMessagingContext } from "@parley/testing/messaging";
import { createDocumentValidator } from "@parley/testing/openapi";
import { type ChildNode, type Element, isTag, isText } from "domhandler";
import { parseDocument } from "htmlparser2";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { curlExamples, shellQuote } from "~/docs/curl.ts";
import { docsAssetRoute, docsPageRoute } from "~/server/routes/docs.ts";
import { type AppServer, startAppServer } from "./support/app-server.ts";

const APP_URL = "https://parley.example.com";
const SESSION_SECRET = "s".repeat(40);

function unescapeHtml(html: string): string {
  return html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The curl commands of a rendered page (the curl tabs), as the copy buttons copy them. */
function pageCommands(html: string): Array<{ id: string; command: string }> {
  return [...html.matchAll(/<pre id="([^"]+)"><code>([\s\S]*?)<\/code><\/pre>\s*<button type="button" class="copy" data-copy="\1"/g)]
    .map(([, id, code]) => ({ id: id!, command: unescapeHtml(code!) }))
    .filter(({ id }) => id.startsWith("curl-"));
}

/** Every element of a parsed page, depth first. */
function elements(nodes: ChildNode[]): Element[] {
  return nodes.flatMap((node) => (isTag(node) ? [node, ...elements(node.children)] : []));
}

/** An element's text, as a reader sees it (entities decoded, whitespace collapsed). */
function textOf(node: ChildNode): string {
  if (isText(node)) return node.data;
  return isTag(node) ? node.children.map(textOf).join("") : "";
}

const readable = (text: string) => text.replace(/\s+/g, " ").trim();

describe("GET /docs", () => {
  it("is an HTML page with the reference and the curl examples, nothing from another origin", async () => {
    const response = await docsPageRoute(new Request(`${APP_URL}/docs`), APP_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain("<title>Parley API reference</title>");
    expect(html).toContain('<link rel="stylesheet" href="/docs/assets/docs.css">');
    expect(html).toContain('<script src="/docs/assets/docs.js"></script>');
    expect(html).toContain("Version 1.0.0");
    // Every script and stylesheet from our origin; no inline script.
    for (const [, url] of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^\/docs\/assets\//);
    expect(html).not.toMatch(/<script>/);

    const commands = pageCommands(html);
    expect(commands.map(({ id }) => id)).toEqual(curlExamples(buildOpenApiDocument({ appUrl: APP_URL })).map(({ id }) => `curl-${id}`));
    expect(commands.map(({ id }) => id)).toEqual([
      "curl-sendMessage-start",
      "curl-sendMessage-continue",
      "curl-sendMessage-handoff",
      "curl-listHelpCollections",
      "curl-listHelpArticles",
      "curl-getHelpArticle",
      "curl-createHttpApiKey",
      "curl-revokeHttpApiKey",
    ]);
    expect(commands[0]?.command).toBe(
      [
        `curl -s "${APP_URL}/api/agent/demo/messages" \\`,
        '  -H "Authorization: Bearer $PARLEY_API_KEY" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{"message":"How do I get a refund?","visitor":{"name":"Ada","email":"ada@example.com"},"clientVariables":{"plan":"pro"}}'`,
      ].join("\n"),
    );
    expect(commands[4]?.command).toBe(`curl -s "${APP_URL}/api/agent/demo/help/articles?q=refund&source=src-billing"`);
    expect(commands[6]?.command).toBe(
      `curl -s -X POST "${APP_URL}/api/agents/demo/http-api-key" \\\n  -b "__Secure-next-auth.session-token=$PARLEY_SESSION"`,
    );
    expect(commands[7]?.command).toMatch(/^curl -s -X DELETE /);
  });

  it("has an Errors section: every entry of the error table under its stable anchor, with status, text, meaning and what to do", async () => {
    const html = await (await docsPageRoute(new Request(`${APP_URL}/docs`), APP_URL)).text();
    const all = elements(parseDocument(html, { decodeEntities: true }).children);
    const byId = new Map(all.filter((element) => element.attribs.id).map((element) => [element.attribs.id!, element]));
    expect(readable(textOf(byId.get("errors-heading")!))).toBe("Errors");
    expect(Object.keys(ERRORS).length).toBeGreaterThan(20);
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      const row = byId.get(`errors-${code.toLowerCase().replaceAll("_", "-")}`);
      expect(row, code).toBeDefined();
      expect(row!.attribs.id).toBe(errorDocsAnchor(code));
      const cells = row!.children.filter(isTag).map((cell) => readable(textOf(cell)));
      expect(cells, code).toEqual([
        code.toLowerCase().replaceAll("_", "-"),
        String(ERRORS[code].status),
        ERRORS[code].message,
        ERROR_DOCS[code].meaning.replaceAll("`", ""),
        ERROR_DOCS[code].action.replaceAll("`", ""),
      ]);
    }
    // The examples the Link header and the brief name, spelled out.
    expect(byId.get("errors-rate-limited")?.name).toBe("tr");
    expect(byId.get("errors-not-found")?.name).toBe("tr");
    expect(byId.get("errors-missing-bearer-token")?.name).toBe("tr");
  });

  it("documents every operation beside its samples: curl, the typed client where it covers it, and fetch, each copyable", async () => {
    const html = await (await docsPageRoute(new Request(`${APP_URL}/docs`), APP_URL)).text();
    const all = elements(parseDocument(html, { decodeEntities: true }).children);
    const byId = new Map(all.filter((element) => element.attribs.id).map((element) => [element.attribs.id!, element]));
    const nav = all.find((element) => element.name === "nav");
    expect(nav?.attribs["aria-label"]).toBe("API reference");
    const navLinks = elements(nav!.children)
      .filter((element) => element.name === "a")
      .map((link) => link.attribs.href);
    expect(navLinks).toEqual([
      "#introduction",
      "#tag-messages",
      "#sendMessage",
      "#tag-help-centre",
      "#listHelpCollections",
      "#listHelpArticles",
      "#getHelpArticle",
      "#tag-keys",
      "#createHttpApiKey",
      "#revokeHttpApiKey",
      "#webhooks",
      "#errors",
    ]);
    for (const href of navLinks) expect(byId.has(href!.slice(1)), href).toBe(true);

    const tabsOf = (operationId: string) =>
      elements(byId.get(operationId)!.children)
        .filter((element) => element.attribs.role === "tab")
        .map((tab) => readable(textOf(tab)));
    expect(tabsOf("sendMessage")).toEqual(["curl", "Typed client", "fetch"]);
    expect(tabsOf("listHelpArticles")).toEqual(["curl", "Typed client", "fetch"]);
    expect(tabsOf("createHttpApiKey")).toEqual(["curl", "fetch"]);
    expect(readable(textOf(byId.get("client-sendMessage-start")!))).toBe(
      readable(`import { Parley } from "@parley/client";
        const parley = new Parley({ apiKey: process.env.PARLEY_API_KEY, agentId: "demo", baseUrl: "${APP_URL}" });
        const reply = await parley.messages.send({ "message": "How do I get a refund?", "visitor": { "name": "Ada", "email": "ada@example.com" }, "clientVariables": { "plan": "pro" } });`),
    );
    expect(textOf(byId.get("fetch-listHelpArticles")!)).toBe(
      `const response = await fetch("${APP_URL}/api/agent/demo/help/articles?q=refund&source=src-billing");\nconst data = await response.json();`,
    );
    expect(textOf(byId.get("fetch-revokeHttpApiKey")!)).toContain('method: "DELETE"');
    expect(textOf(byId.get("fetch-revokeHttpApiKey")!)).toContain("console.log(response.status); // 204");
    // Every sample has its copy button, and every tab its panel.
    for (const pre of all.filter((element) => element.name === "pre")) {
      expect(
        all.some((element) => element.name === "button" && element.attribs["data-copy"] === pre.attribs.id),
        pre.attribs.id,
      ).toBe(true);
    }
    for (const tab of all.filter((element) => element.attribs.role === "tab")) {
      expect(byId.get(tab.attribs["aria-controls"]!)?.attribs["aria-labelledby"]).toBe(tab.attribs.id);
    }
    // The send operation's body fields and responses.
    const send = readable(textOf(byId.get("sendMessage")!));
    expect(send).toContain("POST /api/agent/{agentId}/messages");
    expect(send).toContain("message string required");
    expect(send).toContain("429");
  });

  it("quotes for the shell", () => {
    expect(shellQuote(`{"message":"it's"}`)).toBe(`'{"message":"it'\\''s"}'`);
  });
});

describe("GET /docs/assets/{file}", () => {
  const asset = (file: string) => docsAssetRoute(new Request(`${APP_URL}/docs/assets/${file}`), { file });

  it("serves the page's own script and style", async () => {
    const script = await asset("docs.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const source = await script.text();
    expect(source).toContain("aria-selected");
    expect(source).toContain("navigator.clipboard");
    expect((await asset("docs.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("serves nothing else", async () => {
    for (const file of ["package.json", "../package.json", "index.html", "swagger-ui-bundle.js", "toString", "__proto__"]) {
      const response = await asset(file);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Not found" });
    }
  });
});

describe("the curl examples, pasted into a shell", () => {
  let ctx: TestContext;
  let server: AppServer;

  beforeAll(async () => {
    ctx = await createMessagingContext();
    server = await startAppServer(ctx, { sessionSecret: SESSION_SECRET });
  });

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
  });

  it("reach the app and get documented answers", async () => {
    const html = await (await fetch(`${server.url}/docs`)).text();
    const commands = pageCommands(html);
    expect(commands).toHaveLength(8);
    const { key } = await generateAgentKey(ctx.db, "demo");
    const admin = await ctx.db.prisma.user.findFirstOrThrow({ where: { workspaceId: "ws-demo" } });
    const { id: sessionId } = await startSession(ctx.db, { userId: admin.id, ip: null, userAgent: null }, new Date());
    const session = await encode({ token: { userId: admin.id, workspaceId: "ws-demo", sessionId }, secret: SESSION_SECRET });
    const validator = createDocumentValidator(buildOpenApiDocument({ appUrl: server.url }));
    const examples = curlExamples(validator.document);

    const statuses: number[] = [];
    for (const [index, { command }] of commands.entries()) {
      const { stdout } = await promisify(execFile)("bash", ["-c", `${command} -w '\\n%{http_code}'`], {
        env: { ...process.env, http_proxy: "", HTTP_PROXY: "", PARLEY_API_KEY: key, PARLEY_SESSION: session },
        timeout: 30_000,
      });
      const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
      const text = stdout.slice(0, stdout.lastIndexOf("\n"));
      statuses.push(status);
      const [method, path] = operationOf(validator.document, examples[index]!.id);
      expect(validator.validateBody(path, method, status, text === "" ? undefined : JSON.parse(text)).errors, command).toEqual([]);
    }
    // The continue and handoff examples name an example conversation: this deployment has none.
    expect(statuses).toEqual([200, 404, 404, 200, 200, 200, 201, 204]);
  });
});

function operationOf(document: ReturnType<typeof buildOpenApiDocument>, exampleId: string): [string, string] {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
      if (operation.operationId && (exampleId === operation.operationId || exampleId.startsWith(`${operation.operationId}-`))) {
        return [method, path];
      }
    }
  }
  throw new Error(`no operation for ${exampleId}`);
}
