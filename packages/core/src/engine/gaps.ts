// What was not answered: which turns are knowledge gaps, and the wording key that groups a
// question with the others that ask the same thing (the knowledge search's own analysis: folded,
// stop words dropped, stemmed, so "Refunds for PayPal?" and "paypal refund" meet).
import type { Prisma } from "@parley/db";
import { KNOWLEDGE_GAP_QUESTION_MAX_CHARS } from "../limits.ts";
import { fold, termsOf } from "./retrieval/analyze.ts";
import { detectLanguage } from "./retrieval/languages.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { EngineResult } from "./types.ts";

export type KnowledgeGapKind = "unanswered" | "handoff" | "not_helpful" | "no_search_result";

/**
 * A turn is a gap when the visitor asked for a person, or when the agent searched the knowledge
 * base and linked no article (the "I don't know" reply; the same rule as the panel home's count).
 */
export function turnGapKind(result: EngineResult): KnowledgeGapKind | null {
  if (result.handoffRequested || result.toolCalls.some((call) => call.name === HANDOFF_TOOL)) return "handoff";
  const searched = result.toolCalls.some((call) => call.name === SEARCH_TOOL);
  const linked = result.richContent.some((item) => item.type === "articles" && item.articles.length > 0);
  return searched && !linked ? "unanswered" : null;
}

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
