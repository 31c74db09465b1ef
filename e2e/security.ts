// Browser-side guards of the security journeys: a trap that records any script an XSS payload
// manages to run (alert, dialogs, window.__xss), a listener for Content-Security-Policy violations,
// and checks of what a rendered area holds and does when each of its links is clicked.
import { type BrowserContext, expect, type Locator, type Page, type Request } from "@playwright/test";

declare global {
  interface Window {
    __xss: unknown[];
    __cspViolations: Array<{ directive: string; blocked: string; sample: string }>;
  }
}

export interface Traps {
  /** Dialogs (alert, confirm, prompt) opened by any page of the context. */
  dialogs: string[];
}

/**
 * Installs the traps in every page and frame of the context, before any of its own script runs:
 * alert/confirm/prompt and window.__xss record into window.__xss, dialogs are dismissed and recorded,
 * and CSP violations are recorded in window.__cspViolations.
 */
export async function installTraps(context: BrowserContext): Promise<Traps> {
  const traps: Traps = { dialogs: [] };
  await context.addInitScript(() => {
    window.__xss = [];
    window.__cspViolations = [];
    const record = (value: unknown) => {
      window.__xss.push(String(value));
      try {
        if (window.top && window.top !== window) window.top.__xss.push(`frame: ${String(value)}`);
      } catch {
        // a cross-origin frame: the dialog listener still sees its alert
      }
    };
    window.alert = record;
    window.confirm = (value?: string) => {
      record(value);
      return false;
    };
    window.prompt = (value?: string) => {
      record(value);
      return null;
    };
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
    });
  });
  context.on("dialog", (dialog) => {
    traps.dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => {});
  });
  return traps;
}

export function cspViolations(page: Page): Promise<Window["__cspViolations"]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

/** Nothing ran: no dialog, no write to window.__xss (in this page or any of its frames). */
export async function expectNoScriptRan(page: Page, traps: Traps, where: string): Promise<void> {
  expect(traps.dialogs, `dialogs opened on ${where}`).toEqual([]);
  expect(await page.evaluate(() => window.__xss), `script ran on ${where}`).toEqual([]);
  for (const frame of page.frames()) {
    const value = await frame.evaluate(() => (window as Window).__xss).catch(() => []);
    expect(value, `script ran in a frame of ${where}`).toEqual([]);
  }
}

/** URL attributes that could run script when followed or loaded. */
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "srcdoc", "srcset"];

/**
 * No element of the area has an event-handler attribute, a script-capable URL (javascript:,
 * vbscript:, data:) in a URL attribute, or is itself a script-capable element.
 */
export async function expectNoDangerousMarkup(area: Locator, where: string): Promise<void> {
  const found = await area.evaluate((root, urlAttributes) => {
    const problems: string[] = [];
    const dangerousUrl = (value: string) =>
      // Browsers ignore whitespace and control characters around and inside a scheme.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: that is what is being removed.
      /^(?:javascript|vbscript|data):/i.test(value.replace(/[\u0000-\u0020\u007f]/g, ""));
    for (const element of [root, ...root.querySelectorAll("*")]) {
      const tag = element.tagName.toLowerCase();
      if (["script", "iframe", "object", "embed", "frame", "frameset", "base", "meta", "link", "style", "form"].includes(tag)) {
        problems.push(`<${tag}> element`);
      }
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith("on")) problems.push(`<${tag} ${name}="${attribute.value}">`);
        if (name === "style") problems.push(`<${tag} style="${attribute.value}">`);
        if (urlAttributes.includes(name) && dangerousUrl(attribute.value)) problems.push(`<${tag} ${name}="${attribute.value}">`);
      }
    }
    return problems;
  }, URL_ATTRIBUTES);
  expect(found, `dangerous markup in ${where}`).toEqual([]);
}

/**
 * Clicks every link of the area, one by one, and checks after each click that no script ran.
 * Requests to other hosts are answered 204 (a navigation then stays on the page); a link that
 * leaves the page for another of ours is followed, then `reopen` brings the page back.
 */
export async function clickEveryLink(page: Page, traps: Traps, area: () => Locator, reopen: () => Promise<void>, where: string) {
  const appHost = new URL(page.url()).host;
  await page.context().route(
    (url) => url.host !== appHost,
    (route) => route.fulfill({ status: 204, body: "" }),
  );
  const count = await area().locator("a").count();
  expect(count, `links in ${where}`).toBeGreaterThan(0);
  const start = page.url();
  // On a busy machine a click's navigation (a full one, or the router's) may land after the
  // check that followed it: the page is reopened whenever it is no longer the one under test.
  const reopenSafely = async () => {
    await reopen().catch(async () => {
      await page.waitForLoadState("load").catch(() => undefined);
      await reopen();
    });
  };
  for (let index = 0; index < count; index++) {
    if (page.url() !== start || (await area().locator("a").count()) <= index) await reopenSafely();
    const link = area().locator("a").nth(index);
    const href = await link.getAttribute("href", { timeout: 10_000 }).catch(async () => {
      await reopenSafely();
      return link.getAttribute("href", { timeout: 10_000 });
    });
    const before = page.url();
    const popups: Page[] = [];
    const onPage = (popup: Page) => popups.push(popup);
    // A navigation the click starts may still be loading after the pause on a busy machine:
    // its request is awaited, so the page is checked (or reopened) only once it has settled.
    const navigations: Request[] = [];
    const onRequest = (request: Request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request);
    };
    page.context().on("page", onPage);
    page.on("request", onRequest);
    await link.click({ force: true, noWaitAfter: true, timeout: 5_000 }).catch(() => link.evaluate((node: HTMLElement) => node.click()));
    await page.waitForTimeout(250);
    page.context().off("page", onPage);
    page.off("request", onRequest);
    for (const navigation of navigations) await navigation.response().catch(() => null);
    if (navigations.length > 0) await page.waitForLoadState("load");
    for (const popup of popups) {
      const ran = await popup.evaluate(() => window.__xss ?? []).catch(() => []);
      expect(ran, `script ran in the tab opened by link ${index} (${href}) of ${where}`).toEqual([]);
      await popup.close();
    }
    if (page.url() === before && (await stayedOnPage(page, traps, `${where} after clicking link ${index} (${href})`))) continue;
    await reopenSafely();
  }
  expect(traps.dialogs, `dialogs after clicking the links of ${where}`).toEqual([]);
}

/**
 * Checks the page the click left in place; false when a navigation replaced it during the check
 * (the check's page is gone: the caller reopens it, and the new page is the one checked next).
 */
async function stayedOnPage(page: Page, traps: Traps, where: string): Promise<boolean> {
  try {
    await expectNoScriptRan(page, traps, where);
    return true;
  } catch (error) {
    if (!String(error).includes("Execution context was destroyed")) throw error;
    await page.waitForLoadState("load");
    return false;
  }
}
