// What was not answered, as stored: a gap's row, and the wording key that groups a question with
// the others that ask the same thing (the knowledge search's own analysis: folded,
// stop words dropped, stemmed, so "Refunds for PayPal?" and "paypal refund" meet).
import type { Prisma } from "@parley/db";
import { detectLanguage } from "../languages/detection.ts";
import { KNOWLEDGE_GAP_QUESTION_MAX_CHARS } from "../limits.ts";
import { fold, termsOf } from "../search/analyze.ts";

export type KnowledgeGapKind = "unanswered" | "handoff" | "not_helpful" | "no_search_result";

/** The visitor's words as kept: whitespace collapsed, at most KNOWLEDGE_GAP_QUESTION_MAX_CHARS characters. */
export function gapQuestion(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return Array.from(flat).slice(0, KNOWLEDGE_GAP_QUESTION_MAX_CHARS).join("");
}

/** The grouping key: the question's distinct subject terms, sorted; the folded text when it has none. */
export function gapKey(question: string): string {
  const terms = [...new Set(termsOf(question, detectLanguage(question)))].sort();
  return terms.length > 0
    ? terms.join(" ")
    : fold(question)
        .replace(/[^\p{L}\p{N}]+/gu, " ")
        .trim();
}

/** The row of one gap (written in the caller's transaction, or alone). */
export function knowledgeGapRow(
  agentId: string,
  kind: KnowledgeGapKind,
  text: string,
  now: Date,
  /** The conversation the words come from (none for a help search). */
  conversationId: string | null = null,
): Prisma.KnowledgeGapUncheckedCreateInput {
  const question = gapQuestion(text);
  return { agentId, conversationId, kind, question, normalized: gapKey(question), createdAt: now };
}
