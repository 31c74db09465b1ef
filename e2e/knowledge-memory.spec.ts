// A help centre too large for the in-process knowledge index: an editor imports 100 manuals of
// ~99,000 characters into a new source and links it to a new agent. The agent page warns, under
// Linked sources, that the agent answers from the database search (with the text's size and the
// budget), and the test chat still answers from the right manual.
import { expect, test } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { axeViolations, WIDTHS } from "./axe.ts";
import { agentTab, keepScreenshot, openAgents, signIn, uniqueSuffix } from "./support.ts";

const MANUALS = 100;
const WORDS = "account billing browser calendar channel contact device domain export folder invoice mailbox".split(" ");

/** ~99,000 characters of plain sentences, different for each `seed`. */
function longText(seed: number): string {
  const words: string[] = [];
  for (let i = 0, length = 0; length < 99_000; i += 1) {
    const word = WORDS[(seed * 7 + i * 13) % WORDS.length]! + (i % 12 === 11 ? "." : "");
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

test("an agent whose sources are over the memory budget says so and still answers", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const suffix = uniqueSuffix();
  const sourceName = `Manuals ${suffix}`;
  const agentId = `e2e-manuals-${suffix}`;
  const files: Record<string, Uint8Array> = {};
  for (let n = 1; n <= MANUALS; n++) {
    const body =
      n === 42 ? `To configure the zephyr gateway, open Settings and choose Gateway. ${longText(n).slice(0, 2_000)}` : longText(n);
    const title = n === 42 ? "Configure the zephyr gateway" : `Manual ${n}`;
    files[`manuals/manual-${suffix}-${n}.md`] = strToU8(`---\ntitle: ${title}\npublished: true\n---\n\n${body}\n`);
  }

  await signIn(page);
  await page.goto("/panel/knowledge");
  await page.getByLabel("New source name").fill(sourceName);
  await page.getByRole("button", { name: "Create source" }).click();
  await page.getByRole("link", { name: sourceName, exact: true }).click();
  await expect(page).toHaveURL(/\/panel\/knowledge\/sources\//);

  const importer = page.getByRole("region", { name: "Import articles" });
  await importer.getByLabel("What to import").selectOption({ label: "Markdown files (.zip)" });
  await importer
    .getByLabel("File")
    .setInputFiles({ name: "manuals.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(files)) });
  await importer.getByRole("button", { name: "Start import" }).click();
  const job = importer.getByRole("list", { name: "Recent imports" }).getByRole("listitem").first();
  await expect(job).toContainText("Done", { timeout: 150_000 });
  await expect(job).toContainText(`${MANUALS} created · 0 updated · 0 skipped · 0 failed`);

  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E manuals ${suffix}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const linked = (await agentTab(page, "Answers")).getByRole("region", { name: "Linked sources" });
  await expect(linked.getByRole("status")).toHaveCount(0);
  await linked.getByRole("checkbox", { name: new RegExp(`^${sourceName}`) }).check();
  await expect(linked.getByText("Sources updated.")).toBeVisible();
  const notice = linked.getByRole("status").filter({ hasText: "database search" });
  await expect(notice).toContainText(/These sources hold 9\.\d MB of article text, more than the 8\.0 MB an instance keeps in memory/);
  await expect(notice).toContainText("unlink or unpublish sources it does not need to bring it back");

  // The test chat answers from the manual the database search finds.
  const tryIt = page.getByRole("region", { name: "Try it" });
  await tryIt.getByLabel("Test message").fill("How do I configure the zephyr gateway?");
  await tryIt.getByRole("button", { name: "Send" }).click();
  await expect(tryIt.getByRole("list", { name: "Test conversation" })).toContainText("From “Configure the zephyr gateway”", {
    timeout: 20_000,
  });

  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await notice.scrollIntoViewIfNeeded();
    const serious = (await axeViolations(page)).filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious, `agent page at ${width} px`).toEqual([]);
    await keepScreenshot(page, testInfo, `knowledge-memory-${width}`);
  }

  // Unlinked again, the agent is back within the budget and the warning goes.
  await page.setViewportSize({ width: 1280, height: 900 });
  await linked.getByRole("checkbox", { name: new RegExp(`^${sourceName}`) }).uncheck();
  await expect(notice).toHaveCount(0);
});
