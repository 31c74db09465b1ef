// Security headers on every response the production server sends (pages, route handlers, the public
// REST routes served without Next, static files, errors), a Content-Security-Policy with a fresh
// nonce on every page, and Chromium enforcing it: an injected inline script without the nonce is
// blocked and reported, and no page of the panel, the help centre or /docs has any violation.
import { type APIResponse, expect, type Page, test } from "@playwright/test";
import { cspViolations, installTraps } from "./security.ts";
import { keepScreenshot, signIn } from "./support.ts";

function expectCommonHeaders(response: APIResponse, what: string) {
  const headers = response.headers();
  expect(headers["x-content-type-options"], `nosniff on ${what}`).toBe("nosniff");
  expect(headers["referrer-policy"], `Referrer-Policy on ${what}`).toBe("strict-origin-when-cross-origin");
}

/** The directives of a CSP header value, by name. */
function directives(policy: string): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) parsed.set(name.toLowerCase(), values);
  }
  return parsed;
}

function expectPageCsp(response: APIResponse, what: string, baseURL: string): string {
  const policy = response.headers()["content-security-policy"];
  expect(policy, `CSP on ${what}`).toBeTruthy();
  const csp = directives(policy!);
  const scripts = csp.get("script-src") ?? [];
  expect(scripts, `script-src of ${what}`).toContain("'self'");
  const nonce = scripts.find((value) => /^'nonce-[A-Za-z0-9+/=_-]{16,}'$/.test(value));
  expect(nonce, `script nonce of ${what}`).toBeTruthy();
  expect(scripts, `script-src of ${what}`).not.toContain("'unsafe-inline'");
  expect(scripts, `script-src of ${what}`).not.toContain("'unsafe-eval'");
  expect(csp.get("object-src"), what).toEqual(["'none'"]);
  expect(csp.get("base-uri"), what).toEqual(["'self'"]);
  expect(csp.get("form-action"), what).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
  const ws = baseURL.replace(/^http/, "ws");
  expect(csp.get("connect-src"), what).toEqual(["'self'", ws]);
  return nonce!;
}

const PAGES = [
  "/",
  "/signin",
  "/signin?callbackUrl=%2Fpanel%2Fusage",
  "/signout",
  "/help/demo",
  "/help/demo/collections/src-billing",
  "/help/demo/articles/refunds",
  "/help/demo/search?q=refund",
  "/help/demo/articles/no-such-article",
  "/help/no-such-agent",
  "/no-such-page",
  "/docs",
];

const PANEL_PAGES = [
  "/panel",
  "/panel/agents",
  "/panel/agents/demo",
  "/panel/knowledge",
  "/panel/knowledge/sources/src-billing",
  "/panel/knowledge/articles/new",
  "/panel/knowledge/articles/art-refunds",
  "/panel/conversations",
  "/panel/usage",
  "/panel/webhooks",
];

/** Other responses: route handlers, the public REST routes (served without Next in production), files. */
const NON_PAGES: Array<{ method: "GET" | "POST"; path: string; status: number }> = [
  { method: "GET", path: "/api/health", status: 200 },
  { method: "GET", path: "/api/openapi.json", status: 200 },
  { method: "GET", path: "/api/agent/demo/help", status: 200 },
  { method: "GET", path: "/api/agent/demo/help/articles?q=refund", status: 200 },
  { method: "GET", path: "/api/agent/demo/help/articles/art-refunds", status: 200 },
  { method: "GET", path: "/api/agent/demo/help/articles/nope", status: 404 },
  { method: "POST", path: "/api/agent/demo/messages", status: 401 },
  { method: "GET", path: "/api/trpc/agents.list", status: 401 },
  { method: "GET", path: "/api/auth/csrf", status: 200 },
  { method: "GET", path: "/widget.js", status: 200 },
  { method: "GET", path: "/docs/assets/docs.js", status: 200 },
  { method: "GET", path: "/help/demo/sitemap.xml", status: 200 },
  { method: "GET", path: "/%E0%A4%A", status: 400 },
];

test("every page carries the CSP with a fresh nonce, nosniff and Referrer-Policy", async ({ request, baseURL }) => {
  for (const path of PAGES) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeLessThan(500);
    expectCommonHeaders(response, path);
    const nonce = expectPageCsp(response, path, baseURL!);
    if (response.headers()["content-type"]?.startsWith("text/html") && path !== "/docs") {
      // Next puts the request's nonce on its own scripts; a second request gets another nonce.
      expect(await response.text(), path).toContain(`nonce="${nonce.slice(7, -1)}"`);
      const again = expectPageCsp(await request.get(path, { maxRedirects: 0 }), path, baseURL!);
      expect(again, path).not.toBe(nonce);
    }
  }
});

/**
 * GET without following redirects. Once more when the server closed an idle keep-alive connection
 * just as the request reused it (ECONNRESET: the request never reached the app).
 */
async function getRetryingReset(page: Page, path: string): Promise<APIResponse> {
  try {
    return await page.request.get(path, { maxRedirects: 0 });
  } catch (error) {
    if (!String(error).includes("ECONNRESET")) throw error;
    return page.request.get(path, { maxRedirects: 0 });
  }
}

test("the panel's pages and redirects carry the CSP too", async ({ page, baseURL }) => {
  const signedOut = await page.request.get("/panel/agents", { maxRedirects: 0 });
  expect(signedOut.status()).toBe(307);
  expectCommonHeaders(signedOut, "the sign-in redirect");
  await signIn(page);
  for (const path of PANEL_PAGES) {
    const response = await getRetryingReset(page, path);
    expect(response.status(), path).toBeLessThan(400);
    expectCommonHeaders(response, path);
    expectPageCsp(response, path, baseURL!);
  }
});

test("routes, the public REST routes and files carry nosniff and Referrer-Policy", async ({ request }) => {
  for (const { method, path, status } of NON_PAGES) {
    const response = method === "GET" ? await request.get(path, { maxRedirects: 0 }) : await request.post(path, { data: {} });
    expect(response.status(), path).toBe(status);
    expectCommonHeaders(response, `${method} ${path}`);
  }
  // A file of Next's build.
  const home = await (await request.get("/signin")).text();
  const chunk = /src="(\/_next\/static\/[^"]+\.js)"/.exec(home)?.[1];
  expect(chunk).toBeTruthy();
  const file = await request.get(chunk!);
  expect(file.status()).toBe(200);
  expectCommonHeaders(file, chunk!);
});

test("Chromium blocks an inline script injected without the nonce, and reports it", async ({ page, context }) => {
  await installTraps(context);
  await page.goto("/help/demo");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const outcome = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true;";
    document.body.append(script);
    // The violation event is dispatched asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ran: (window as unknown as { __injected?: boolean }).__injected === true };
  });
  expect(outcome.ran).toBe(false);
  const violations = await cspViolations(page);
  expect(violations.map((violation) => violation.directive)).toContain("script-src-elem");
});

async function visitWithoutViolations(page: Page, path: string, ready: () => Promise<void>) {
  const consoleErrors: string[] = [];
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  };
  page.on("console", onConsole);
  await page.goto(path);
  await ready();
  await page.waitForTimeout(300);
  page.off("console", onConsole);
  expect(await cspViolations(page), `CSP violations on ${path}`).toEqual([]);
  expect(consoleErrors, `CSP errors in the console of ${path}`).toEqual([]);
}

test("no page of the help centre, /docs or the panel has a CSP violation", async ({ page, context }) => {
  test.setTimeout(120_000);
  await installTraps(context);
  const heading = () => expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  for (const path of PAGES.filter((path) => path !== "/docs" && path !== "/signout")) await visitWithoutViolations(page, path, heading);
  // The help pages carry the widget: open it and chat, under the page's CSP.
  await visitWithoutViolations(page, "/help/demo/articles/refunds", async () => {
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByLabel("Your message").fill("How do I get a refund?");
    await page.getByLabel("Your message").press("Enter");
    await expect(page.locator("[data-parley-widget]").locator(".msg.agent").first()).toBeVisible();
  });
  await visitWithoutViolations(page, "/docs", async () => {
    await expect(page.getByRole("heading", { level: 1, name: "Parley API reference" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Typed client" }).first()).toBeVisible();
  });
  await signIn(page);
  for (const path of PANEL_PAGES) await visitWithoutViolations(page, path, heading);
  await visitWithoutViolations(page, "/panel/usage", async () => {
    await heading();
    await expect(page.getByText("Loading").first()).toBeHidden();
  });
});

test("the article editor with its preview, a help article and /docs render fully under the CSP (screenshots)", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  await installTraps(context);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/help/demo/articles/refunds");
    await expect(page.locator(".help-prose").getByRole("heading").first()).toBeVisible();
    await keepScreenshot(page, testInfo, `csp-help-article-${width}`);
    await page.goto("/docs");
    await expect(page.locator("#sendMessage")).toBeVisible();
    await keepScreenshot(page, testInfo, `csp-docs-${width}`);
    expect(await cspViolations(page)).toEqual([]);
  }
  await signIn(page);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/panel/knowledge/articles/art-refunds");
    await expect(page.getByRole("region", { name: "Preview" }).getByRole("heading").first()).toBeVisible();
    await keepScreenshot(page, testInfo, `csp-article-editor-${width}`);
    expect(await cspViolations(page)).toEqual([]);
  }
});

test("an error's Link header leads to its row of the errors table on /docs, on a desktop and a phone", async ({
  page,
  request,
}, testInfo) => {
  const refused = await request.get("/api/agent/nope/help");
  expect(refused.status()).toBe(404);
  const link = refused.headers().link ?? "";
  expect(link).toBe('</docs#errors-not-found>; rel="help"');
  const target = link.slice(1, link.indexOf(">"));
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(target);
    await expect(page.locator("#sendMessage")).toBeVisible();
    const row = page.locator("#errors-not-found");
    await expect(row).toBeInViewport();
    await expect(row).toContainText("404");
    expect(new URL(page.url()).hash).toBe("#errors-not-found");
    await keepScreenshot(page, testInfo, `docs-error-anchor-${width}`);
  }
});
