// After sign-in the admin goes only to a path of this site: hostile callbackUrl values (tabs,
// newlines, backslashes, protocol-relative and absolute URLs, script schemes, encoded forms, very long
// values) end at /panel, on the sign-in page and in next-auth's own redirects. Never a 500.
import { expect, test } from "@playwright/test";
import { E2E_ADMIN, signIn } from "./support.ts";

/** [callbackUrl as sent, path the admin ends on]. */
const CASES: Array<[string, string]> = [
  ["/\t/evil.example/x", "/panel"],
  ["/\n/evil.example/x", "/panel"],
  ["/\r\n/evil.example/x", "/panel"],
  ["/\nx", "/x"],
  ["//evil.example/x", "/panel"],
  ["/\\evil.example/x", "/panel"],
  ["\\\\evil.example/x", "/panel"],
  ["/\\/evil.example/x", "/panel"],
  ["/.//evil.example/x", "/panel"],
  ["/%2e//evil.example/x", "/panel"],
  ["https://evil.example/x", "/panel"],
  // Same scheme as the app without slashes: a relative path of this site, as browsers read it.
  ["http:evil.example", "/evil.example"],
  ["https:/evil.example", "/panel"],
  ["javascript:alert(1)", "/panel"],
  ["JaVaScRiPt:alert(1)", "/panel"],
  [" javascript:alert(1)", "/panel"],
  ["data:text/html,<script>alert(1)</script>", "/panel"],
  ["%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["evil.example", "/evil.example"],
  ["/panel/../..//evil.example/x", "/panel"],
  ["/panel/usage?days=7#top", "/panel/usage?days=7#top"],
  ["/panel/agents/demo", "/panel/agents/demo"],
  [`/panel/${"a".repeat(5000)}`, "/panel"],
  ["", "/panel"],
];

test("the sign-in page redirects a signed-in admin only to a path of this site", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await signIn(page);
  for (const [value, expected] of CASES) {
    const response = await page.request.get(`/signin?callbackUrl=${encodeURIComponent(value)}`, { maxRedirects: 0 });
    expect(response.status(), JSON.stringify(value)).toBe(307);
    expect(new URL(response.headers().location!, baseURL).href, JSON.stringify(value)).toBe(new URL(expected, baseURL).href);
    expect(response.headers().location!.startsWith("/") || response.headers().location!.startsWith(baseURL!), JSON.stringify(value)).toBe(
      true,
    );
  }
});

test("the sign-in form sends the admin to the same safe target", async ({ page, baseURL }) => {
  for (const [value, expected] of [
    ["/\t/evil.example/x", "/panel"],
    ["/panel/usage", "/panel/usage"],
  ]) {
    // The panel page of the case before is left first: its queries still loading would meet the
    // cleared session and send the tab to sign-in on their own, racing this navigation.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(value!)}`);
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // An unsafe target opens the panel's home.
    await expect(page).toHaveURL(new URL(expected!, baseURL).href);
  }
});

test("next-auth's own redirects follow the same rule", async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  // (An empty callbackUrl falls back to next-auth's callback-url cookie of the case before.)
  for (const [value, expected] of CASES.filter(([value]) => value !== "")) {
    // GET /api/auth/signin runs callbackUrl through the redirect callback, then sends to our page.
    const response = await request.get(`/api/auth/signin?callbackUrl=${encodeURIComponent(value)}`, { maxRedirects: 0 });
    expect(response.status(), JSON.stringify(value)).toBe(302);
    const location = new URL(response.headers().location!, baseURL);
    expect(location.pathname, JSON.stringify(value)).toBe("/signin");
    expect(location.searchParams.get("callbackUrl"), JSON.stringify(value)).toBe(new URL(expected, baseURL).href);
  }

  // A credentials sign-in posted with a hostile callbackUrl ends on /panel.
  for (const [value, expected] of [
    ["https://evil.example/x", "/panel"],
    ["/\t/evil.example/x", "/panel"],
    ["/panel/usage", "/panel/usage"],
  ]) {
    const csrf = await request.get("/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await request.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: E2E_ADMIN.email, password: E2E_ADMIN.password, callbackUrl: value!, json: "true" },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(response.status(), value).toBeLessThan(400);
    const target = response.status() === 200 ? ((await response.json()) as { url: string }).url : response.headers().location!;
    expect(new URL(target, baseURL).href, value).toBe(new URL(expected!, baseURL).href);
  }
});
