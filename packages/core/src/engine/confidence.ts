// Whether the knowledge agent answers from its best article or says it does not know. One score,
// a logistic function of six things the ranking knows about the best article:
//
// - coverage: the share of the question's subject words (by weight, idf) the article contains;
// - title: the share its title names ("install on WordPress" and an article titled "WordPress");
// - margin: how far it stands above the next article ((relevance - next) / relevance);
// - evidence: the summed weight of the subject words it contains, over EVIDENCE_SCALE (a long
//   message that rambles has a low coverage but still names several of its answer's words);
// - unknown: the share of the question's subject words nothing in the help centre stands for (as
//   written, corrected or by a synonym: "heatmaps", "bitcoin"): a question about something the
//   articles never mention;
// - strength: how strongly its passages match as scored (rank.ts ArticleMatch.strength, relative
//   to the help centre's own idf scale, log): the shares above say nothing of how many of the
//   question's words one passage holds together, nor how rare they are.
//
// The weights and the threshold were chosen on the dev questions of every eval corpus together
// (eval/corpora: a fictional product and three real products' documentation), each corpus
// weighing the same, for the most right answers at the threshold that declines 90% of every
// corpus's unanswerable dev questions (a margin over the 85% asked of help centres never seen:
// fitted to 85% exactly, one corpus's test questions fell to 63%). The test questions were kept
// apart, and leaving each corpus out of the choice in turn moved its own figures little.
// A title naming most of the question answers: an article whose title holds 0.6 of the
// question's words (so the article holds them too) clears it with nothing else in its favour.
import type { ArticleMatch, Ranking } from "../knowledge/search/rank.ts";

const WEIGHTS = { coverage: 1.05, title: 4.87, margin: 0.96, evidence: 1.84, unknown: -4.48, strength: 1.75 } as const;
const BIAS = -4.265;
/** Summed idf at which evidence counts in full (about six specific words). */
const EVIDENCE_SCALE = 30;
/** The least confidence to answer. */
export const KNOWLEDGE_MIN_CONFIDENCE = 0.3;

export interface ConfidenceInputs {
  coverage: number;
  title: number;
  margin: number;
  evidence: number;
  unknown: number;
  strength: number;
}

/** The inputs of `ranking.articles[position]`'s confidence. */
export function confidenceInputs(ranking: Ranking, position: number): ConfidenceInputs {
  const match = ranking.articles[position]!;
  const next = ranking.articles[position + 1];
  return {
    coverage: match.coverage,
    title: match.titleShare,
    // An article found only by meaning (no lexical relevance) stands above nothing; a lone one above all.
    margin: match.relevance <= 0 ? 0 : next ? Math.max(0, (match.relevance - next.relevance) / match.relevance) : 1,
    evidence: Math.min(match.evidence, EVIDENCE_SCALE) / EVIDENCE_SCALE,
    // A question complete on its own is not held against the earlier message's words.
    unknown: Math.min(unknownShare(ranking.words.slice(0, ranking.ownWords)), unknownShare(ranking.words)),
    strength: Math.log1p(match.strength),
  };
}

/** The share of `words`, by weight, that nothing in the help centre stands for. */
function unknownShare(words: Ranking["words"]): number {
  const total = words.reduce((sum, word) => sum + word.weight, 0);
  return total > 0 ? words.reduce((sum, word) => sum + (word.unknown ? word.weight : 0), 0) / total : 0;
}

/** 0..1: how likely the article answers the question, as the eval's labels taught. */
export function confidenceOf(inputs: ConfidenceInputs): number {
  const z =
    BIAS +
    WEIGHTS.coverage * inputs.coverage +
    WEIGHTS.title * inputs.title +
    WEIGHTS.margin * inputs.margin +
    WEIGHTS.evidence * inputs.evidence +
    WEIGHTS.unknown * inputs.unknown +
    WEIGHTS.strength * inputs.strength;
  return 1 / (1 + Math.exp(-z));
}

/** Whether the article at `position` of the ranking is good enough to answer from. */
export function answersQuestion(ranking: Ranking, position = 0): boolean {
  return ranking.articles[position] !== undefined && confidenceOf(confidenceInputs(ranking, position)) >= KNOWLEDGE_MIN_CONFIDENCE;
}

/** An article linked beside the answer holds this share of the question's subject words... */
export const RELATED_MIN_COVERAGE = 0.55;
/** ...or this much evidence (summed idf: about three specific words). */
const RELATED_MIN_EVIDENCE = 14;

/** Whether an article other than the one answered from is worth linking beside the answer. */
export function relatedTo(match: ArticleMatch): boolean {
  return match.coverage >= RELATED_MIN_COVERAGE || match.evidence >= RELATED_MIN_EVIDENCE;
}
