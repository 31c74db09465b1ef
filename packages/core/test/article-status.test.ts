// What the panel says of an article's state: one status, never Published and Archived together,
// and why visitors do not see it.
import { articleStatus } from "@parley/core/browser";
import { describe, expect, it } from "vitest";

describe("articleStatus", () => {
  it("names one status and says who sees the article, or why nobody does", () => {
    const cases = [
      [
        { published: true, active: true, sourceActive: true },
        "Published",
        true,
        "Visible in the help centre of every active agent linked to this source.",
      ],
      [{ published: false, active: true, sourceActive: true }, "Draft", false, "Draft: not visible to visitors or agents."],
      [{ published: true, active: false, sourceActive: true }, "Archived", false, "Archived: not visible to visitors or agents."],
      [{ published: false, active: false, sourceActive: false }, "Archived", false, "Archived: not visible to visitors or agents."],
      [{ published: true, active: true, sourceActive: false }, "Published", false, "Not visible: its source is inactive."],
      [{ published: false, active: true, sourceActive: false }, "Draft", false, "Not visible: its source is inactive."],
    ] as const;
    for (const [state, label, visible, note] of cases)
      expect(articleStatus(state), JSON.stringify(state)).toMatchObject({ label, visible, note });
  });
});
