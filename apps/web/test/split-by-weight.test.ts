// The split of the e2e spec files between shards (scripts/split-by-weight.mjs): groups of about
// equal weight, every item once, an unknown item counted as the median.
import { describe, expect, it } from "vitest";
import { splitByWeight } from "../../../scripts/split-by-weight.mjs";

describe("splitByWeight", () => {
  it("puts the heaviest first onto the lightest group, every item once", () => {
    const weights = { a: 70, b: 55, c: 44, d: 38, e: 10, f: 9, g: 3 };
    const groups = splitByWeight(Object.keys(weights), weights, 2);
    expect(groups).toEqual([
      { items: ["a", "d", "f"], weight: 117 },
      { items: ["b", "c", "e", "g"], weight: 112 },
    ]);
  });

  it("counts an item it has no weight for as the median of the others", () => {
    const groups = splitByWeight(["new", "x", "y", "z"], { x: 30, y: 10, z: 20 }, 2);
    expect(groups).toEqual([
      { items: ["x", "y"], weight: 40 },
      { items: ["new", "z"], weight: 40 },
    ]);
  });

  it("leaves groups empty when there are fewer items than groups", () => {
    expect(splitByWeight(["only"], {}, 3)).toEqual([
      { items: ["only"], weight: 1 },
      { items: [], weight: 0 },
      { items: [], weight: 0 },
    ]);
  });
});
