// axe-core over a page: WCAG 2.x A/AA and best practices, every impact (minor included).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  // A check that ran on the page (not on an empty frame) passes rules.
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

/** A phone and a desktop. */
export const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;
