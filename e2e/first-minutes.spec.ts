// What a newcomer meets in the first minutes: every page has an icon (no 404 for /favicon.ico or
// anything else a page asks for), and the webhook form says what this server accepts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { closeNewKeyDialog, expectMessageResponse, openAgents, openNewKeyDialog, signIn } from "./support.ts";

/** The README's first request: its URL path, headers and body, as the quick start prints them. */
function readmeCurl() {
  const readme = readFileSync(path.join(test.info().project.testDir, "..", "README.md"), "utf8");
  const block = /export PARLEY_API_KEY=pk_\.\.\..*?\n(curl[\s\S]*?)\n```/.exec(readme)?.[1];
  if (!block) throw new Error("The README's quick start has no curl request after `export PARLEY_API_KEY=pk_...`");
  const url = /curl -s (\S+)/.exec(block)?.[1] ?? "";
  const body = /-d '([^']+)'/.exec(block)?.[1] ?? "";
  expect(block).toContain('-H "Authorization: Bearer $PARLEY_API_KEY"');
  expect(block).toContain('-H "Content-Type: application/json"');
  return { path: url.replace(/^localhost:3000/, ""), body: JSON.parse(body) as Record<string, unknown> };
}

test("the README's quick start: sign in, generate the demo agent's key in the panel, the curl request answers 200 with a reply", async ({
  page,
  request,
}) => {
  const curl = readmeCurl();
  expect(curl.path).toBe("/api/agent/demo/messages");
  await signIn(page);
  // "Agents → Acme Cloud help assistant → Generate key", as the README says.
  await openAgents(page);
  await page.getByRole("link", { name: "Acme Cloud help assistant" }).click();
  await expect(page).toHaveURL("/panel/agents/demo");
  const { key } = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, key);

  const response = await request.post(curl.path, {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: curl.body,
  });
  const reply = await expectMessageResponse(response);
  expect(reply.reply.length).toBeGreaterThan(0);
  expect(reply.status).toBe("active");

  // The home now ticks the first step of getting started.
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Home" }).click();
  const checklist = page.getByRole("region", { name: "Getting started" });
  if (await checklist.isVisible()) await expect(checklist.getByRole("listitem").first()).toContainText("(done)");
});

test("the help centre, /docs and the panel load without a single failed request, with the app's icon", async ({ page, request }) => {
  test.setTimeout(120_000);
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  for (const path of ["/help/demo", "/docs"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  await signIn(page);
  await page.goto("/panel/agents");
  await page.waitForLoadState("networkidle");
  expect(failed).toEqual([]);

  await expect(page.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveCount(1);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveCount(1);
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toBe("image/x-icon");
  const icon = await request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});

test("the webhook form says which URLs this server accepts and names the setting for local ones", async ({ page }) => {
  await signIn(page);
  await page.goto("/panel/webhooks");
  const url = page.getByLabel("Endpoint URL");
  await expect(url).toHaveAccessibleDescription(
    "An https:// URL of your server. Private, loopback and link-local addresses are refused. Local addresses are allowed only while the server runs with WEBHOOKS_ALLOW_LOCAL=true (for development).",
  );
  await url.fill("https://127.0.0.1/hooks");
  await page.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText(/WEBHOOKS_ALLOW_LOCAL=true/).last()).toBeVisible();
  await expect(page.getByText("The URL must not point to a private, loopback or link-local address.", { exact: false })).toBeVisible();
});
