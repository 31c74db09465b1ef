// Reciprocal rank fusion: several rankings of the same kind of item (the lexical index's, and
// the embeddings' nearest passages when an endpoint is configured) become one. Each list gives
// an item 1 / (k + rank); scores are not comparable between rankers, ranks are.

/** The constant of the original paper (Cormack et al., 2009): damps the weight of the very top ranks. */
export const RRF_K = 60;

/**
 * The items of `lists` (each best first) ordered by their summed reciprocal rank; `keyOf` says
 * when two lists name the same item. Ties keep the order of first appearance (the first list
 * first), so one list alone comes out unchanged.
 */
export function reciprocalRankFusion<T>(lists: ReadonlyArray<readonly T[]>, keyOf: (item: T) => string, k = RRF_K): T[] {
  const fused = new Map<string, { item: T; score: number; order: number }>();
  for (const list of lists) {
    list.forEach((item, rank) => {
      const key = keyOf(item);
      const entry = fused.get(key);
      const gain = 1 / (k + rank + 1);
      if (entry) entry.score += gain;
      else fused.set(key, { item, score: gain, order: fused.size });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.order - b.order).map((entry) => entry.item);
}
