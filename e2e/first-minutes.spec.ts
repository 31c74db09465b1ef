// What a newcomer meets in the first minutes: every page has an icon (no 404 for /favicon.ico or
// anything else a page asks for), and the webhook form says what this server accepts.
import { expect, test } from "@playwright/test";
import { signIn } from "./support.ts";

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
