// The in-process exact nearest-neighbour search: on random vectors its answer is exactly the
// brute-force ranking (best first, scores are cosine similarities), restricted to the allowed
// sources, after replacements and removals, with freed slots reused.
import { describe, expect, it } from "vitest";
import { unitVector, VectorIndex } from "../src/knowledge/semantic/vector-index.ts";

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVector(next: () => number, dims: number): Float32Array {
  return unitVector(Array.from({ length: dims }, () => next() * 2 - 1));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

interface Item {
  articleId: string;
  section: number;
  sourceId: string;
  vector: Float32Array;
}

function bruteForce(items: Item[], query: Float32Array, k: number, sources: Set<string>) {
  return items
    .filter((item) => sources.has(item.sourceId))
    .map((item) => ({ articleId: item.articleId, section: item.section, score: dot(item.vector, query) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

describe("VectorIndex", () => {
  it("returns exactly the brute-force top k of the allowed sources, best first", () => {
    const next = random(7);
    const dims = 32;
    const items: Item[] = [];
    const index = new VectorIndex();
    for (let i = 0; i < 2_000; i++) {
      const item = { articleId: `a${i % 500}`, section: Math.floor(i / 500), sourceId: `s${i % 7}`, vector: randomVector(next, dims) };
      items.push(item);
      index.upsert(item, item.vector);
    }
    expect(index.size).toBe(2_000);
    for (let q = 0; q < 20; q++) {
      const query = randomVector(next, dims);
      const sources = new Set(["s0", "s3", "s5"]);
      const expected = bruteForce(items, query, 10, sources);
      const actual = index.search(query, 10, sources);
      expect(actual.map(({ articleId, section }) => ({ articleId, section }))).toEqual(
        expected.map(({ articleId, section }) => ({ articleId, section })),
      );
      for (const [rank, hit] of actual.entries()) expect(hit.score).toBeCloseTo(expected[rank]!.score, 5);
    }
  });

  it("replaces a passage's vector and source, forgets removed passages and reuses their slots", () => {
    const index = new VectorIndex();
    const x = unitVector([1, 0, 0]);
    const y = unitVector([0, 1, 0]);
    const z = unitVector([0, 0, 1]);
    index.upsert({ articleId: "a", section: 0, sourceId: "s1" }, x);
    index.upsert({ articleId: "b", section: 0, sourceId: "s1" }, y);
    expect(index.search(x, 1, new Set(["s1"]))).toEqual([{ articleId: "a", section: 0, score: 1 }]);

    index.upsert({ articleId: "a", section: 0, sourceId: "s2" }, z);
    expect(index.size).toBe(2);
    expect(index.search(x, 2, new Set(["s1", "s2"])).map((hit) => hit.score)).toEqual([0, 0]);
    expect(index.search(z, 2, new Set(["s1"]))).toEqual([{ articleId: "b", section: 0, score: 0 }]);
    expect(index.search(z, 1, new Set(["s2"]))).toEqual([{ articleId: "a", section: 0, score: 1 }]);

    index.remove("a", 0);
    expect(index.has("a", 0)).toBe(false);
    expect(index.search(z, 5, new Set(["s1", "s2"]))).toEqual([{ articleId: "b", section: 0, score: 0 }]);
    index.upsert({ articleId: "c", section: 3, sourceId: "s2" }, x);
    expect(index.size).toBe(2);
    expect(index.keys()).toEqual(
      expect.arrayContaining([
        { articleId: "b", section: 0 },
        { articleId: "c", section: 3 },
      ]),
    );
    expect(index.search(x, 1, new Set(["s2"]))).toEqual([{ articleId: "c", section: 3, score: 1 }]);
  });

  it("refuses a vector of another dimension count, and finds nothing for a query of one", () => {
    const index = new VectorIndex();
    index.upsert({ articleId: "a", section: 0, sourceId: "s" }, unitVector([1, 0]));
    expect(() => index.upsert({ articleId: "b", section: 0, sourceId: "s" }, unitVector([1, 0, 0]))).toThrow(
      "VectorIndex: a vector of 3 dimensions in an index of 2",
    );
    expect(index.search(unitVector([1, 0, 0]), 3, new Set(["s"]))).toEqual([]);
    expect(index.search(unitVector([1, 0]), 0, new Set(["s"]))).toEqual([]);
  });

  it("scales vectors to unit length (a zero vector stays zero)", () => {
    expect([...unitVector([3, 4])]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect([...unitVector([0, 0])]).toEqual([0, 0]);
  });
});
