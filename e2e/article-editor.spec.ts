// The article editor and the logo: an admin writes an article with the Markdown toolbar (a button,
// a shortcut, a list), uploads a picture that the preview shows at once, saves with the Save bar
// that stays in view, reads the history (times to the second, who saved), publishes, and a visitor
// sees the picture on the help page. The editor passes axe at desktop and phone widths. On a new
// agent, a logo is uploaded and shown by the help centre; an http address is refused and its error
// goes once corrected; a logo that does not load warns in the panel and leaves the help centre's
// name alone in its header.
import { deflateSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { E2E_PORT } from "./playwright.config.ts";
import { agentTab, keepScreenshot, openAgents, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;

/** A PNG of one colour, made here so the journey needs no file. */
function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [red, green, blue]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function openKnowledgeBase(page: Page) {
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Knowledge base" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Knowledge base" })).toBeVisible();
}

/** Selects `text` in the editor's text area, as a person dragging over it would. */
async function selectText(page: Page, text: string) {
  await page.getByLabel("Content (Markdown)").evaluate((element, wanted) => {
    const area = element as HTMLTextAreaElement;
    const start = area.value.indexOf(wanted);
    area.focus();
    area.setSelectionRange(start, start + wanted.length);
  }, text);
}

/** Whether an image has loaded (a broken one has no natural width). */
const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0);

test("write with the toolbar, upload a picture, save, read the history, publish; the help page shows the picture", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const title = `Refund forms ${uniqueSuffix()}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await openKnowledgeBase(page);
  await page.getByRole("link", { name: "New article" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Source").selectOption({ label: "Billing" });
  const content = page.getByLabel("Content (Markdown)");
  await content.fill("Refunds take five days.");
  await page.getByRole("button", { name: "Create article" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const articleId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");

  // The toolbar writes Markdown around the selection: a button, a shortcut, a list.
  const toolbar = page.getByRole("toolbar", { name: "Formatting" });
  // One Tab stop: the arrow keys, Home and End move along it.
  await toolbar.getByRole("button", { name: "Heading" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(toolbar.getByRole("button", { name: "Bold" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(toolbar.getByRole("button", { name: "Upload an image" })).toBeFocused();
  await expect(toolbar.locator('button[tabindex="0"]')).toHaveCount(1);
  await selectText(page, "five days");
  await toolbar.getByRole("button", { name: "Bold" }).click();
  await expect(content).toHaveValue("Refunds take **five days**.");
  await selectText(page, "Refunds");
  await page.keyboard.press("Control+i");
  await expect(content).toHaveValue("_Refunds_ take **five days**.");
  await content.press("End");
  await content.press("Enter");
  await content.press("Enter");
  await content.pressSequentially("Fill in the form");
  await toolbar.getByRole("button", { name: "Bulleted list" }).click();
  await expect(content).toHaveValue("_Refunds_ take **five days**.\n\n- Fill in the form");
  await content.press("End");
  await content.press("Enter");

  // A picture: uploaded, inserted as Markdown on its own line, shown by the preview.
  const picture = solidPng(240, 120, [11, 87, 208]);
  await page
    .locator(".markdown-editor input[type=file]")
    .setInputFiles({ name: "refund-form.png", mimeType: "image/png", buffer: picture });
  await expect(page.getByRole("status").filter({ hasText: "uploaded and inserted" })).toHaveText(
    "Image “refund-form.png” uploaded and inserted: describe it between the brackets.",
  );
  await expect(content).toHaveValue(
    new RegExp(
      `^_Refunds_ take \\*\\*five days\\*\\*\\.\\n\\n- Fill in the form\\n\\n!\\[refund form\\]\\(${APP_ORIGIN}/api/images/[0-9a-f]{64}\\.png\\)$`,
    ),
  );
  const imageUrl = /\((http[^)]+)\)/.exec(await content.inputValue())?.[1] ?? "";
  const served = await page.request.get(imageUrl);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.from(await served.body())).toEqual(picture);
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("img", { name: "refund form" })).toBeVisible();
  expect(await loaded(page, '.markdown-preview img[alt="refund form"]')).toBe(true);

  // A long article: the Save bar stays in the window while the top of the form is in view.
  await content.press("Control+End");
  await content.pressSequentially(`\n\n${Array.from({ length: 30 }, (_, line) => `Step ${line + 1}.`).join("\n\n")}`, { delay: 0 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const save = page.getByRole("button", { name: "Save article" });
  await expect(save).toBeInViewport();
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await keepScreenshot(page, testInfo, "article-editor-1280", { fullPage: false });
  await save.click();
  await expect(page.getByText("Article saved.")).toBeVisible();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  // Saving keeps the focus on Save (a button disabled while it saves would drop it to the page).
  await expect(save).toBeFocused();

  // The history beside the form: to the second, by whom; a version's changes in a dialog.
  const history = page.getByRole("region", { name: "History" });
  const versions = history.getByRole("list", { name: "Saved versions" }).getByRole("button");
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText("by Demo admin · draft · current");
  await expect(versions.first().locator("time")).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
  await versions.last().click();
  const dialog = page.getByRole("dialog", { name: /^Version of / });
  await expect(dialog.locator("pre del")).toContainText(["Refunds take five days."]);
  await expect(dialog.locator("pre ins").first()).toContainText("_Refunds_ take **five days**.");
  await keepScreenshot(page, testInfo, "article-history-dialog", { fullPage: false });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // No accessibility problems in the editor, on a desktop and a phone.
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await axeViolations(page), `${width} px`).toEqual([]);
    if (width < 1280) {
      await keepScreenshot(page, testInfo, `article-editor-${width}`, { fullPage: false });
      await toolbar.scrollIntoViewIfNeeded();
      await keepScreenshot(page, testInfo, `article-editor-toolbar-${width}`, { fullPage: false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Published, the help page shows the picture to a visitor.
  const visibility = page.getByRole("region", { name: "Visibility" });
  await visibility.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(visibility.getByRole("status")).toHaveText("Published.");
  await expect(visibility.getByRole("button", { name: "Unpublish", exact: true })).toBeFocused();
  await expect(page.locator(".page-heading .badge")).toHaveText(["Published"]);
  const visitor = await visitAsNewVisitor(browser, baseURL, `/help/demo/articles/${articleId}`);
  try {
    await expect(visitor.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(visitor.page.getByRole("img", { name: "refund form" })).toBeVisible();
    expect(await loaded(visitor.page, 'img[alt="refund form"]')).toBe(true);
    await keepScreenshot(visitor.page, testInfo, "help-article-picture", { fullPage: false });
  } finally {
    await visitor.close();
  }

  // Archived, it shows Archived alone (never also Published).
  await visibility.getByRole("button", { name: "Archive" }).click();
  await expect(visibility.getByRole("status")).toHaveText("Archived: hidden from help centres and agents.");
  await expect(page.locator(".page-heading .badge")).toHaveText(["Archived"]);
});

test("upload a logo the help centre shows; a refused address's error goes once corrected; a broken logo warns and leaves the name", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-logo-${suffix}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E logo ${suffix}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const look = (await agentTab(page, "Widget & look")).getByRole("region", { name: "Help centre & widget" });
  const logo = look.getByLabel("Logo address");
  await look.getByLabel("Help centre name").fill("Logo Co Help");
  // An http address is refused; its error goes as soon as the address is corrected.
  await logo.fill("http://insecure.example.com/logo.png");
  await look.getByRole("button", { name: "Save look" }).click();
  await expect(logo).toHaveAttribute("aria-invalid", "true");
  await expect(look).toContainText("Enter an address starting with https://, or upload an image");
  await logo.fill("https://");
  await expect(logo).not.toHaveAttribute("aria-invalid", "true");
  await expect(look).not.toContainText("Enter an address starting with https://, or upload an image");

  // Uploaded: the field holds this server's address for it, and the preview shows it.
  await look.locator(".logo-upload input[type=file]").setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: solidPng(96, 32, [212, 101, 47]),
  });
  await expect(logo).toHaveValue(/^\/api\/images\/[0-9a-f]{64}\.png$/);
  await expect(look.getByRole("region", { name: "Preview" }).locator("img")).toBeVisible();
  await look.getByRole("button", { name: "Save look" }).click();
  await expect(look.getByRole("status")).toHaveText("Help centre and widget saved.");
  expect(await axeViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo, "logo-uploaded-panel", { fullPage: false });
  const visitor = await visitAsNewVisitor(browser, baseURL, `/help/${agentId}`);
  try {
    await expect(visitor.page.locator(".help-logo")).toBeVisible();
    expect(await loaded(visitor.page, ".help-logo")).toBe(true);
    await expect(visitor.page.locator(".help-brand-name")).toHaveText("Logo Co Help");
    await keepScreenshot(visitor.page, testInfo, "help-logo", { fullPage: false });
  } finally {
    await visitor.close();
  }

  // A logo that does not load: a warning in the panel; the help centre shows its name, no broken image.
  await logo.fill("https://logo.invalid/missing.png");
  await expect(look.getByRole("alert")).toContainText("The logo did not load from this address");
  await look.getByRole("button", { name: "Save look" }).click();
  await expect(look.getByRole("status")).toHaveText("Help centre and widget saved.");
  await keepScreenshot(page, testInfo, "logo-broken-panel", { fullPage: false });
  const second = await visitAsNewVisitor(browser, baseURL, `/help/${agentId}`);
  try {
    await expect(second.page.locator(".help-brand-name")).toHaveText("Logo Co Help");
    await expect(second.page.locator(".help-logo")).toHaveCount(0);
    await keepScreenshot(second.page, testInfo, "help-logo-broken", { fullPage: false });
  } finally {
    await second.close();
  }
});
