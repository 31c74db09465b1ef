// The knowledge agent (the default engine; no network): answers from the agent's visible help
// articles, found by the passage index (../knowledge/search/), so the help centre's visibility rule holds.
// It quotes the passage that answers and names its article, adds a second article's passage when
// the question spans two, reads a follow-up with the visitor's previous message, and answers in
// the visitor's language (phrases.ts). It hands over to a person when asked, says plainly when the
// evidence is too weak to answer, and then offers a person. What a message asks for before any
// search is read in intent.ts.
//
// tokenUsage: tokens (gpt-tokenizer, o200k_base) of the visitor's message + the retrieved context
// (title and content of every article the answer was drawn from or links to) + the reply; what an
// LLM would have consumed to give this answer from this context.
import { helpArticleUrl } from "../help/urls.ts";
import { type Section, sectionsOf } from "../knowledge/articles/sections.ts";
import { detectLanguage, LANGUAGES, type Language, loadLanguageDetector } from "../knowledge/languages/detection.ts";
import { type AgentIndex, agentIndex, overBudgetIndex, type StoredArticle } from "../knowledge/search/agent-index.ts";
import { termsOf } from "../knowledge/search/analyze.ts";
import { type ArticleMatch, type RankedPassage, type Ranking, rankArticles } from "../knowledge/search/rank.ts";
import { nearestPassages } from "../knowledge/semantic/nearest.ts";
import { markdownLiteral } from "../platform/markdown.ts";
import { answersQuestion, RELATED_MIN_COVERAGE, relatedTo } from "./confidence.ts";
import { asksForHuman, isGreeting, isThanks } from "./intent.ts";
import { KNOWLEDGE_ANSWER_MAX_CHARS, KNOWLEDGE_SEARCH_RESULTS } from "./limits.ts";
import { opensWithList, quoteSection } from "./passage.ts";
import { PHRASES, type Phrases } from "./phrases.ts";
import { countTokens } from "./tokens.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { Engine, EngineDeps, EngineHistoryMessage, EngineInput, EngineResult, RichContentItem, ToolCall } from "./types.ts";

/** Passages asked of semantic retrieval per question, fused with the lexical ranking. */
const SEMANTIC_PASSAGES = 20;
/** A second article is quoted too when it holds this share of the question's words the first lacks. */
const SECOND_ARTICLE_MIN_GAIN = 0.2;

// ---------------------------------------------------------------------------------------------
// Retrieval

export interface KnowledgeSearch {
  index: AgentIndex;
  ranking: Ranking;
}

/**
 * The agent's articles ranked for a message (and the visitor's earlier messages). `otherRankings`
 * are further rankings of passages, best first, fused with the lexical one (rank.ts fuse);
 * `fallbackLanguage`, the language a message that says too little is read in (the earlier messages').
 */
export async function searchKnowledge(
  deps: EngineDeps,
  agentId: string,
  message: string,
  previous: readonly string[],
  otherRankings: ReadonlyArray<readonly RankedPassage[]> = [],
  fallbackLanguage = conversationLanguage(previous),
): Promise<KnowledgeSearch> {
  // With an embeddings endpoint configured, the passages nearest in meaning are fused in too
  // (null, and nothing fused, when it is not configured, fails or is slow).
  const [held, nearest] = await Promise.all([agentIndex(deps.db, agentId), nearestPassages(deps, agentId, message, SEMANTIC_PASSAGES)]);
  const index =
    "overBudget" in held
      ? await overBudgetIndex(
          deps.db,
          agentId,
          held,
          [message, ...previous.slice(-1)].join(" "),
          nearest?.map((passage) => passage.articleId),
        )
      : held;
  const rankings = nearest ? [...otherRankings, nearest] : otherRankings;
  const ranking = rankArticles({
    index: index.index,
    synonyms: index.synonyms,
    message,
    previous,
    otherRankings: rankings,
    fallbackLanguage,
  });
  return { index, ranking };
}

// ---------------------------------------------------------------------------------------------
// Replies

function talkToPerson(phrases: Phrases): RichContentItem {
  return { type: "buttons", buttons: [{ label: phrases.talkToPerson, action: "handoff" }] };
}

/**
 * The visitor's name as the reply's Markdown writes it: literal text on one line. The name is the
 * visitor's own words; unescaped, "![x](https://…)" in it would put their image or link into the
 * agent's reply, the image loaded by every browser that shows it (the team's panel too).
 */
function visitorName(input: EngineInput): string {
  const literal = markdownLiteral(input.visitor.name?.replace(/\s+/g, " ").trim() ?? "");
  // Nor does an address in it become a link (GFM links "https://…" and "www.…" written bare).
  return literal.replace(/:(?=\/\/)/g, "\\:").replace(/\b(www)\./gi, "$1\\.");
}

/** "Hi Ada, " the first time the agent answers a visitor whose name it knows, else "". */
function greeting(input: EngineInput, phrases: Phrases): string {
  const name = visitorName(input);
  if (!name) return "";
  const greetings = LANGUAGES.map((language) => PHRASES[language].hi(name).trimEnd().replace(/,$/, ""));
  const greeted = input.history.some((message) => message.role === "agent" && greetings.some((hi) => message.text.startsWith(hi)));
  return greeted ? "" : phrases.hi(name);
}

/** With a greeting in front, the sentence continues in lower case ("Hi Ada, from ..."), except "I". */
function opening(greet: string, sentence: string): string {
  if (!greet) return sentence;
  return greet + (/^I\b/.test(sentence) ? sentence : sentence.charAt(0).toLowerCase() + sentence.slice(1));
}

/** The latest agent message searched the knowledge base and found nothing. */
function previousTurnUnanswered(history: EngineHistoryMessage[]): boolean {
  const last = history.findLast((message) => message.role === "agent");
  return last !== undefined && last.answered === false && last.toolCalls.some((call) => call.name === SEARCH_TOOL);
}

function result(
  input: EngineInput,
  reply: string,
  parts: { context?: string[]; toolCalls?: ToolCall[]; richContent?: RichContentItem[]; handoff?: boolean },
): EngineResult {
  const context = parts.context ?? [];
  return {
    reply,
    tokenUsage: countTokens(input.message) + context.reduce((sum, text) => sum + countTokens(text), 0) + countTokens(reply),
    toolCalls: parts.toolCalls ?? [],
    richContent: parts.richContent ?? [],
    handoffRequested: parts.handoff ?? false,
  };
}

/** The visitor's earlier messages, oldest first. */
function visitorMessages(history: EngineHistoryMessage[]): string[] {
  return history.filter((message) => message.role === "user").map((message) => message.text);
}

// An article's sections, read once per stored version (an edit makes a new StoredArticle).
const sectionCache = new WeakMap<StoredArticle, Section[]>();

function sectionsOfArticle(article: StoredArticle): Section[] {
  let sections = sectionCache.get(article);
  if (!sections) {
    sections = sectionsOf(article.content);
    sectionCache.set(article, sections);
  }
  return sections;
}

/**
 * The passage of `match` to quote, as Markdown (passage.ts): its best-ranked section, cut around
 * the question's words, and when that is short, its next-ranked section too (the answer is often
 * split between a section and the one that qualifies it), within KNOWLEDGE_ANSWER_MAX_CHARS.
 */
export function quoteOf(article: StoredArticle, match: ArticleMatch, question: string, language: Language): string {
  const sections = sectionsOfArticle(article);
  const terms = new Set([...termsOf(question, article.language), ...termsOf(question, language)]);
  const [first, second] = match.sections.map((index) => sections[index]).filter((section) => section !== undefined);
  if (!first) return "";
  const quote = quoteSection(first, terms, article.language);
  const room = KNOWLEDGE_ANSWER_MAX_CHARS - quote.length - 1;
  if (!second || room < KNOWLEDGE_ANSWER_MAX_CHARS / 2) return quote.markdown;
  return `${quote.markdown}\n\n${quoteSection(second, terms, article.language, room).markdown}`;
}

/** A passage after the words that introduce it ("From “Title”: "); a list starts on a line of its own. */
function introduced(introduction: string, passage: string): string {
  return opensWithList(passage) ? `${introduction.trimEnd()}\n\n${passage}` : introduction + passage;
}

/** A second article to quote: one that holds enough of the question's words the first lacks. */
function secondArticle(ranking: Ranking, first: ArticleMatch): ArticleMatch | undefined {
  const total = ranking.words.reduce((sum, word) => sum + word.weight, 0);
  if (total <= 0) return undefined;
  return ranking.articles.slice(1, KNOWLEDGE_SEARCH_RESULTS).find((other) => {
    const gain = ranking.words.reduce((sum, word) => sum + (other.matched & word.bit && !(first.matched & word.bit) ? word.weight : 0), 0);
    return gain / total >= SECOND_ARTICLE_MIN_GAIN && other.coverage >= RELATED_MIN_COVERAGE / 2;
  });
}

/** The language to fall back on when a message says too little: that of the visitor's earlier messages. */
function conversationLanguage(previous: readonly string[]): Language | undefined {
  return previous.length > 0 ? detectLanguage(previous.join("\n")) : undefined;
}

export function createKnowledgeEngine(deps: EngineDeps): Engine {
  return {
    async run(input: EngineInput): Promise<EngineResult> {
      await loadLanguageDetector();
      const message = input.message.trim();
      const previous = visitorMessages(input.history);
      const fallback = conversationLanguage(previous);
      const language = detectLanguage(message, fallback);
      const phrases = PHRASES[language];
      const greet = greeting(input, phrases);

      if (asksForHuman(message)) {
        return result(input, opening(greet, phrases.handoff), {
          toolCalls: [{ name: HANDOFF_TOOL, args: { reason: "The visitor asked for a person." } }],
          handoff: true,
        });
      }
      if (isGreeting(message)) {
        return result(input, greet ? phrases.helloName(visitorName(input)) : phrases.hello, {});
      }
      if (isThanks(message)) {
        return result(input, opening(greet, phrases.welcome), {});
      }

      const toolCalls: ToolCall[] = [{ name: SEARCH_TOOL, args: { query: message } }];
      const searched = await searchKnowledge(deps, input.agent.id, message, previous, [], fallback);
      // The reply speaks the language the search read the message in (rank.ts messageLanguage).
      return answerFromSearch(deps, input, message, searched, PHRASES[searched.ranking.language], toolCalls);
    },
  };
}

/** The reply to a searched message: the best article quoted, or "I don't know" with a person offered. */
function answerFromSearch(
  deps: EngineDeps,
  input: EngineInput,
  message: string,
  { index, ranking }: KnowledgeSearch,
  phrases: Phrases,
  toolCalls: ToolCall[],
): EngineResult {
  const greet = greeting(input, phrases);
  const best = ranking.articles[0];
  const bestArticle = best && index.articles.get(best.articleId);
  if (!best || !bestArticle || !answersQuestion(ranking)) {
    const reply = opening(greet, previousTurnUnanswered(input.history) ? phrases.dontKnowAgain : phrases.dontKnow);
    return result(input, reply, { toolCalls, richContent: [talkToPerson(phrases)] });
  }

  const quoted = [{ article: bestArticle, match: best }];
  const second = secondArticle(ranking, best);
  const secondStored = second && index.articles.get(second.articleId);
  if (second && secondStored) quoted.push({ article: secondStored, match: second });
  const parts = quoted.map(({ article, match }, i) => {
    // The reply is Markdown: the title is written to read as itself, as the quote's words are.
    const title = markdownLiteral(article.title);
    const passage = quoteOf(article, match, message, ranking.language) || title;
    return introduced(i === 0 ? phrases.from(title) : phrases.alsoFrom(title), passage);
  });
  const reply = opening(greet, parts.join("\n\n"));
  // Related links are other articles that hold most of the question too (confidence.ts relatedTo).
  const related = ranking.articles.filter((match) => relatedTo(match) && !quoted.some((q) => q.match === match));
  const cited = [...quoted.map(({ match }) => match), ...related]
    .slice(0, KNOWLEDGE_SEARCH_RESULTS)
    .map((match) => index.articles.get(match.articleId))
    .filter((article) => article !== undefined);
  const articles = cited.map((article) => ({
    id: article.id,
    title: article.title,
    url: helpArticleUrl(deps.appUrl, input.agent.id, article.slug),
  }));
  return result(input, reply, {
    context: cited.map((article) => `${article.title}\n${article.content}`),
    toolCalls,
    richContent: [{ type: "articles", articles }],
  });
}
