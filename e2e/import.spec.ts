// An editor imports a .zip of 20 Markdown files (and 3 drafts) into a source: the worker imports them in the
// background while the source page shows progress, then the report, which says how to publish the drafts; the articles are published
// in the source and readable on the help centre by slug, and an article's old id address
// redirects there with 308.
import { expect, test } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { axeViolations, WIDTHS } from "./axe.ts";
import { keepScreenshot, signIn, uniqueSuffix } from "./support.ts";

test("import a zip of 20 Markdown files and read them on the help centre by slug", async ({ page, request, baseURL }, testInfo) => {
  const suffix = uniqueSuffix();
  const files: Record<string, Uint8Array> = {};
  for (let n = 1; n <= 20; n++) {
    files[`guides/imported-${suffix}-${n}.md`] = strToU8(
      `---\ntitle: Imported guide ${n} ${suffix}\npublished: true\n---\n\nStep ${n}: **do it**.\n`,
    );
  }
  // Three without `published: true`: created as drafts, and the summary says how to publish them.
  for (let n = 1; n <= 3; n++)
    files[`drafts/draft-${suffix}-${n}.md`] = strToU8(`# Draft ${n} ${suffix}

Not yet.
`);
  files["notes.txt"] = strToU8("not an article");
  const zip = zipSync(files);

  await signIn(page);
  await page.goto("/panel/knowledge/sources/src-billing");
  const importer = page.getByRole("region", { name: "Import articles" });
  await expect(importer).toBeVisible();
  await importer.getByLabel("What to import").selectOption({ label: "Markdown files (.zip)" });
  await importer.getByLabel("File").setInputFiles({ name: "guides.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
  await importer.getByRole("button", { name: "Start import" }).click();

  const recent = importer.getByRole("list", { name: "Recent imports" });
  const job = recent.getByRole("listitem").first();
  await expect(job).toContainText("Done", { timeout: 30_000 });
  await expect(job).toContainText("23 created · 0 updated · 1 skipped · 0 failed");
  await expect(job).toContainText(
    "3 created as drafts: add published: true to their front matter and import again, or publish them in the editor",
  );
  await expect(job.locator("code")).toHaveText("published: true");
  await job.getByText("Report").click();
  await expect(job.getByRole("row", { name: /notes\.txt skipped Not a Markdown file/ })).toBeVisible();
  await expect(job.getByRole("row", { name: new RegExp(`imported-${suffix}-7\\.md created`) })).toBeVisible();

  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    const serious = (await axeViolations(page)).filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious, `source page at ${width} px`).toEqual([]);
    await keepScreenshot(page, testInfo, `import-source-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Published in the source.
  const articles = page.getByRole("region", { name: "Articles", exact: true });
  const title = `Imported guide 7 ${suffix}`;
  const link = articles.getByRole("link", { name: title, exact: true });
  await expect(link).toBeVisible();
  await expect(articles.getByRole("listitem").filter({ hasText: title })).toContainText("Published");
  const articleId = decodeURIComponent((await link.getAttribute("href"))?.split("/").pop() ?? "");

  // On the help centre by slug (the file name), and the id address redirects there.
  const slugPath = `/help/demo/articles/imported-${suffix}-7`;
  const help = await page.goto(slugPath);
  expect(help?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("article").locator("strong")).toHaveText("do it");

  const byId = await request.get(`/help/demo/articles/${articleId}`, { maxRedirects: 0 });
  expect(byId.status()).toBe(308);
  expect(new URL(byId.headers().location ?? "", baseURL).pathname).toBe(slugPath);
});
