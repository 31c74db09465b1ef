// The metric rules of eval/src/metrics.ts on tiny hand-made replies.
import type { Question } from "@parley/testing/eval-corpus";
import { sliceOf } from "@parley/testing/eval-corpus";
import { describe, expect, it } from "vitest";
import { compareWithBaseline } from "../src/baseline.ts";
import { judge, passageOverlap, percentile, readReply, summarize, type TurnResponse } from "../src/metrics.ts";

const refund: Question = {
  id: "q1",
  question: "my card got charged two times",
  language: "en",
  type: "paraphrase",
  answers: [
    { article: "charged-twice", heading: "If you really paid twice", excerpt: "Duplicate charges are always refunded in full" },
    { article: "refund-policy", heading: "When you can get a refund", excerpt: "we always refund the wrong charge, whatever your plan" },
  ],
};
const weather: Question = { id: "q2", question: "weather tomorrow?", language: "en", type: "off-topic", answers: [] };

function response(reply: string, cited: string[], handoffRequested = false): TurnResponse {
  const articles = cited.map((id) => ({ id, title: id, url: `http://x/${id}` }));
  return { reply, richContent: cited.length > 0 ? [{ type: "articles", articles }] : [], handoffRequested };
}

describe("readReply", () => {
  it("reads the cited articles in rank order", () => {
    expect(readReply(response("From “Refunds”: ...", ["a", "b", "c"])).cited).toEqual(["a", "b", "c"]);
  });

  it("counts no article, a handoff, or a don't-know sentence as abstaining", () => {
    expect(readReply(response("Hello! How can I help you today?", [])).abstained).toBe(true);
    expect(readReply(response("I've asked a person to take over.", ["a"], true)).abstained).toBe(true);
    expect(readReply(response("Sorry, I couldn't find that in our articles.", ["a"])).abstained).toBe(true);
    expect(readReply(response("Lo siento, no lo sé.", ["a"])).abstained).toBe(true);
    expect(readReply(response("Je ne sais pas.", ["a"])).abstained).toBe(true);
    expect(readReply(response("Das weiß ich leider nicht.", ["a"])).abstained).toBe(true);
    expect(readReply(response("Die Lastschrift wird nicht abgebucht.", ["a"])).abstained).toBe(false);
    expect(readReply(response("Ich weiß es nicht.", ["a"])).abstained).toBe(true);
    expect(readReply(response("Não sei responder.", ["a"])).abstained).toBe(true);
    expect(readReply(response("From “Refunds”: monthly payments are not refunded.", ["a"])).abstained).toBe(false);
    expect(readReply(response("Los pagos mensuales no se reembolsan.", ["a"])).abstained).toBe(false);
  });
});

describe("passageOverlap", () => {
  it("is 1 when the reply contains the excerpt, whatever the case, accents and markup", () => {
    expect(
      passageOverlap("From “Refunds”: **Duplicate charges** are ALWAYS refunded in full.", "Duplicate charges are always refunded in full"),
    ).toBe(1);
    expect(passageOverlap("Elige ¿Olvidaste tu contrasena?", "elige ¿Olvidaste tu contraseña?")).toBe(1);
  });

  it("counts the excerpt's word pairs found in the reply", () => {
    // excerpt pairs: we always, always refund, refund the, the wrong, wrong charge (5); reply has 3
    expect(passageOverlap("We will refund the wrong charge.", "we always refund the wrong charge")).toBeCloseTo(3 / 5);
    // same words, another paragraph: no pair in common
    expect(passageOverlap("Charges for usage are refunded never; wrong plans always cost more.", "we always refund the wrong charge")).toBe(
      0,
    );
  });
});

describe("judge", () => {
  it("right article second: top1 = 0, top3 = 1, and a wrong answer", () => {
    const outcome = judge(
      refund,
      readReply(response("From “Cancel”: choose Cancel subscription.", ["cancel-subscription", "refund-policy"])),
      10,
    );
    expect(outcome).toMatchObject({ top1: false, top3: true, passage: false, wrong: true });
  });

  it("any acceptable article first counts, and the passage of any answer", () => {
    const outcome = judge(refund, readReply(response("From “Refund policy”: we always refund the wrong charge.", ["refund-policy"])), 10);
    expect(outcome).toMatchObject({ top1: true, top3: true, passage: true, wrong: false });
  });

  it("right article but another paragraph: top1 without the passage", () => {
    const outcome = judge(refund, readReply(response("From “Refund policy”: monthly payments are not refunded.", ["refund-policy"])), 10);
    expect(outcome).toMatchObject({ top1: true, passage: false });
  });

  it("an abstention on an answerable question is neither right nor wrong", () => {
    const outcome = judge(refund, readReply(response("I'm sorry, I don't know the answer to that.", [])), 10);
    expect(outcome).toMatchObject({ top1: false, top3: false, passage: false, wrong: false });
  });

  it("right article fourth: not even top3", () => {
    expect(judge(refund, readReply(response("...", ["a", "b", "c", "charged-twice"])), 1).top3).toBe(false);
  });

  it("unanswerable: abstaining is a correct don't-know, citing an article is wrong", () => {
    expect(judge(weather, readReply(response("I don't know the answer to that.", [])), 1)).toMatchObject({ dontKnow: true, wrong: false });
    expect(judge(weather, readReply(response("From “Time zones”: ...", ["schedule-time-zones"])), 1)).toMatchObject({
      dontKnow: false,
      wrong: true,
    });
  });
});

describe("summarize", () => {
  it("rates over their own groups, wrong over all questions, latency percentiles", () => {
    const outcomes = [
      judge(refund, readReply(response("we always refund the wrong charge", ["refund-policy"])), 10),
      judge(refund, readReply(response("From “Cancel”", ["cancel-subscription"])), 20),
      judge(weather, readReply(response("I don't know.", [])), 30),
      judge(weather, readReply(response("From “Time zones”", ["schedule-time-zones"])), 40),
    ];
    expect(summarize(outcomes)).toEqual({
      questions: 4,
      answerable: 2,
      unanswerable: 2,
      top1: 0.5,
      top3: 0.5,
      passage: 0.5,
      dont_know: 0.5,
      wrong: 0.5,
      p50_ms: 20,
      p99_ms: 40,
    });
  });

  it("leaves a rate empty when its group is", () => {
    expect(summarize([judge(weather, readReply(response("Hi!", [])), 5)])).toMatchObject({ top1: null, passage: null, dont_know: 1 });
  });

  it("percentile is nearest-rank", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
    expect(percentile([], 50)).toBeNull();
  });
});

describe("sliceOf", () => {
  it("takes evenly spread items, the same every time", () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(sliceOf(items, 4)).toEqual([0, 2, 5, 7]);
    expect(sliceOf(items, 20)).toBe(items);
  });
});

describe("compareWithBaseline", () => {
  const figures = { top1: 0.5, top3: 0.6, passage: 0.4, dont_know: 0.3, wrong: 0.4 };
  const baseline = { slice: 10, tolerance: 0.03, corpora: { kestrel: figures, zulip: figures } };

  it("passes within the tolerance and fails beyond it, naming the corpus and the figure", () => {
    expect(compareWithBaseline(baseline, { kestrel: { ...figures, top1: 0.48 }, zulip: figures }).ok).toBe(true);
    const dropped = compareWithBaseline(baseline, { kestrel: figures, zulip: { ...figures, top1: 0.45, wrong: 0.45 } });
    expect(dropped.ok).toBe(false);
    expect(dropped.lines).toContain("zulip: FAIL top1 50.0% -> 45.0%: dropped by 5.0%, over the tolerance of 3.0%");
    expect(dropped.lines).toContain("zulip: FAIL wrong 40.0% -> 45.0%: rose by 5.0%, over the tolerance of 3.0%");
    expect(dropped.lines).toContain("kestrel: ok top1 50.0% -> 50.0%");
  });

  it("a lower wrong rate is an improvement", () => {
    const verdict = compareWithBaseline(baseline, { kestrel: { ...figures, wrong: 0.2 } });
    expect(verdict.ok).toBe(true);
    expect(verdict.lines.some((line) => line.startsWith("kestrel: better wrong"))).toBe(true);
  });

  it("fails for a corpus the baseline does not have", () => {
    const verdict = compareWithBaseline(baseline, { analytics: figures });
    expect(verdict.ok).toBe(false);
    expect(verdict.lines).toContain("FAIL analytics: no baseline (run npm run eval -- --update-baseline)");
  });
});
