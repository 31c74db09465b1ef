// The peers' "I don't know" threshold and the mean row of eval/results.
import { describe, expect, it } from "vitest";
import { thresholdForRate } from "../src/calibrate.ts";

describe("thresholdForRate", () => {
  const scores = [0, 2, 5, 7, 9];

  it("declines exactly the share asked for, the lowest scores first", () => {
    const threshold = thresholdForRate(scores, 0.6);
    expect(scores.filter((score) => score < threshold)).toEqual([0, 2, 5]);
  });

  it("rounds the share up to whole questions and never declines more than it must", () => {
    const threshold = thresholdForRate(scores, 0.5);
    expect(scores.filter((score) => score < threshold)).toEqual([0, 2, 5]);
    expect(thresholdForRate(scores, 0)).toBe(0);
    expect(scores.filter((score) => score < thresholdForRate(scores, 1))).toEqual(scores);
  });

  it("is 0 for no questions", () => {
    expect(thresholdForRate([], 0.9)).toBe(0);
  });
});
