// The LLM's citation markers are taken out of its reply as it streams, whatever the pieces.
import { describe, expect, it } from "vitest";
import { CitationFilter } from "../src/engine/citations.ts";

function filtered(pieces: string[]): { shown: string[]; text: string; cited: number[] } {
  const filter = new CitationFilter();
  const shown = pieces.map((piece) => filter.push(piece));
  shown.push(filter.flush());
  return { shown, text: shown.join(""), cited: filter.cited };
}

describe("citation markers", () => {
  it("removes markers with the space before them and records the numbers, first cited first", () => {
    expect(filtered(["Refunds take 5 days [2]. Cancel any time [1, 2]."])).toMatchObject({
      text: "Refunds take 5 days. Cancel any time.",
      cited: [2, 1],
    });
  });

  it("removes a marker split across pieces, and never shows a piece of it", () => {
    const { shown, text, cited } = filtered(["Choose Forgot password ", "[", "1", "]", " on the page", " [3"]);
    expect(text).toBe("Choose Forgot password on the page [3");
    expect(cited).toEqual([1]);
    expect(shown.slice(0, -1).some((piece) => piece.includes("["))).toBe(false);
  });

  it("keeps the line break before a marker that starts a line", () => {
    expect(filtered(["Steps:\n", "[1] Open settings."])).toMatchObject({ text: "Steps:\n Open settings.", cited: [1] });
  });

  it("keeps brackets that are not markers", () => {
    expect(filtered(["Press [", "Save] or [Esc]."])).toMatchObject({ text: "Press [Save] or [Esc].", cited: [] });
  });
});
