// The "I don't know" rule of a peer row: abstain when the best score is under a threshold. The
// threshold is chosen on a corpus's dev questions so that the peer declines at least as many
// unanswerable dev questions as the knowledge agent did, and no more than it must: the peer's
// figures then sit at the same correct-"I don't know" rate, where a top-1 comparison is fair.

/**
 * The smallest threshold at which at least `rate` of `unanswerableTopScores` (each question's
 * best score, 0 when nothing matched) fall under it. 0 when `rate` is 0 or there are none.
 */
export function thresholdForRate(unanswerableTopScores: number[], rate: number): number {
  const needed = Math.ceil(rate * unanswerableTopScores.length - 1e-9);
  if (needed <= 0) return 0;
  const sorted = [...unanswerableTopScores].sort((a, b) => a - b);
  // Just above the needed-th lowest score, so that question and every lower one is declined.
  const at = sorted[needed - 1]!;
  return at + Math.max(Math.abs(at) * 1e-9, 1e-12);
}
