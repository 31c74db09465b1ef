// Splits items into groups of about equal total weight: the heaviest first, each onto the lightest
// group so far (longest processing time first). The e2e shards use it on their spec files with the
// seconds each took in CI (e2e/shard-weights.json); an item without a weight counts as the median.

/**
 * @param {string[]} items
 * @param {Record<string, unknown>} weights
 * @param {number} count
 * @returns {Array<{ items: string[]; weight: number }>} `count` groups, some empty when items are fewer
 */
export function splitByWeight(items, weights, count) {
  const known = items.map((item) => weights[item]).filter((weight) => typeof weight === "number");
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1;
  const weightOf = (item) => (typeof weights[item] === "number" ? weights[item] : median);
  const groups = Array.from({ length: count }, () => ({ items: [], weight: 0 }));
  for (const item of [...items].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b))) {
    const lightest = groups.reduce((best, group) => (group.weight < best.weight ? group : best));
    lightest.items.push(item);
    lightest.weight += weightOf(item);
  }
  return groups;
}
