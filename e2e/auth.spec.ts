// An admin signs in (a wrong password is refused, visibly) and
// signs out (after which the panel asks for the password again, and a copy of the old session
// cookie opens nothing, while the admin's session in another browser goes on).
import { expect, test } from "@playwright/test";
import { E2E_ADMIN, signIn } from "./support.ts";

test.describe("admin sign-in and sign-out", () => {
  test("the panel asks for a sign-in; a wrong password fails with a visible error, the right one opens the panel", async ({ page }) => {
    // Unauthenticated: the panel sends the admin to the sign-in page, back to the panel after.
    await page.goto("/panel/agents");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpanel$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();
    // Still on the sign-in page, the password cleared and focused for another try; no session.
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByLabel("Password")).toBeFocused();
    expect((await page.context().cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(false);

    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/panel$/);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    const header = page.getByRole("banner");
    await expect(header).toContainText(E2E_ADMIN.email);
    await expect(page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Home" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // The demo agents are there.
    await expect(page.getByRole("table").getByRole("link", { name: "Acme Cloud help assistant" })).toBeVisible();

    // A signed-in admin who opens the sign-in page goes straight to the panel.
    await page.goto("/signin");
    await expect(page).toHaveURL(/\/panel$/);
  });

  test("signing out ends the session", async ({ page, browser }) => {
    await signIn(page);
    // A copy of the session cookie, kept from before the sign-out, and a second session of the
    // same admin in another browser.
    const kept = (await page.context().cookies()).find((cookie) => cookie.name.includes("session-token"));
    expect(kept).toBeDefined();
    const otherBrowser = await browser.newContext();
    const other = await otherBrowser.newPage();
    await signIn(other);

    await page.getByRole("banner").getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signout$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign out" })).toBeVisible();
    await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();

    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    expect((await page.context().cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(false);

    // The panel and its procedures are closed again.
    await page.goto("/panel/agents");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpanel$/);
    const procedure = await page.request.get("/api/trpc/agents.list");
    expect(procedure.status()).toBe(401);
    await page.goto("/signout");
    await expect(page.getByText("You are signed out.")).toBeVisible();

    // The kept cookie opens nothing: the session ended on the server.
    await page.context().addCookies([kept!]);
    await page.goto("/panel/agents");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpanel$/);
    await page.context().addCookies([kept!]);
    expect((await page.request.get("/api/trpc/agents.list")).status()).toBe(401);
    const keyRoute = await page.request.post("/api/agents/demo-quota/http-api-key", { headers: { origin: new URL(page.url()).origin } });
    expect(keyRoute.status()).toBe(401);
    expect(await keyRoute.json()).toEqual({ error: "Unauthorized" });

    // The other session goes on.
    await other.goto("/panel/agents");
    await expect(other.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
    expect((await other.request.get("/api/trpc/agents.list")).status()).toBe(200);
    await otherBrowser.close();
  });
});
