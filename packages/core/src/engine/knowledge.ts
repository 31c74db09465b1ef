// The knowledge agent (the default engine; no network): answers from the agent's visible help
// articles, found with the help centre's own search (help/search.ts, so the same visibility rule),
// quoting the best passage and naming its article. It hands over to a person when asked, says
// plainly when it does not know, and then offers a person.
//
// tokenUsage: tokens (gpt-tokenizer, o200k_base) of the visitor's message + the retrieved context
// (title and content of every article the answer was drawn from or links to) + the reply; what an
// LLM would have consumed to give this answer from this context.
import { marked, type Token, type Tokens } from "marked";
import { type ArticleHit, searchVisibleArticles } from "../help/search.ts";
import { helpArticleUrl } from "../help/urls.ts";
import { KNOWLEDGE_ANSWER_MAX_CHARS, KNOWLEDGE_QUERY_MAX_WORDS, KNOWLEDGE_SEARCH_RESULTS } from "../limits.ts";
import { countTokens } from "../tokens.ts";
import type { Engine, EngineDeps, EngineHistoryMessage, EngineInput, EngineResult, RichContentItem, ToolCall } from "./types.ts";

export const SEARCH_TOOL = "search_knowledge_base";
export const HANDOFF_TOOL = "request_human";

// ---------------------------------------------------------------------------------------------
// Understanding the message

// Who the visitor may ask for, and the words that may stand before it ("a real support person").
const HUMAN = String.raw`(?:human(?:\s+being)?|person|people|someone|somebody|anyone|anybody|representative|rep|operator|agent|staff|support|team|advisor|specialist)`;
const HUMAN_QUALIFIERS = String.raw`(?:(?:a|an|the|your|some|one|of|real|live|actual|human|support|customer|service|sales|technical|tech|team)\s+)*`;

/**
 * Requests for a person, in one place. Deliberately phrased around "to/with <person>" so that
 * questions about the product ("how do I connect my agent to Slack?") do not trigger a handoff.
 */
export const HANDOFF_PATTERNS: readonly RegExp[] = [
  // "talk to a human", "can I speak with someone", "connect me to an agent", "speak to support staff"
  new RegExp(
    String.raw`\b(?:talk|speak|chat|connect|transfer|put|pass|hand|escalate)\b(?:\s+(?:me|this|it|us|my\s+(?:case|question|issue)))?(?:\s+(?:over|through|back|on))?\s+(?:to|with)\s+${HUMAN_QUALIFIERS}${HUMAN}s?\b`,
    "i",
  ),
  // "I want a human", "I need a real person", "I'd like a representative"
  /\b(?:want|need|like|prefer|request|get\s+me)\s+(?:a|an|to\s+have\s+a)?\s*(?:real\s+|live\s+|actual\s+)?(?:human|person|representative|operator|live\s+agent)\b/i,
  // "a real person", "live agent", "actual human"
  /\b(?:real|live|actual)\s+(?:person|human|agent|people)\b/i,
  // "representative", "operator!", "human please"
  /\brepresentative\b/i,
  /^\W*(?:(?:a|an)\s+)?(?:human|person|agent|someone|operator)(?:\s+please)?\W*$/i,
  /\b(?:human|person|agent|operator)\s+please\b/i,
];

export function asksForHuman(message: string): boolean {
  return HANDOFF_PATTERNS.some((pattern) => pattern.test(message));
}

const GREETING = /^\W*(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening))(?:\s+(?:there|again|all|team))?\W*$/i;
const THANKS =
  /^\W*(?:thanks|thank\s+you|thx|ty|cheers|great|perfect|ok(?:ay)?|got\s+it)(?:\s+(?:so|very)\s+much)?(?:\s*,?\s*(?:thanks|thank\s+you))?(?:\s+for\s+(?:your|the|all\s+the)\s+help)?\W*$/i;

// Words that carry no subject: English stop words, question and filler words of a support chat.
// The database drops its own stop words too; these are the ones it would keep ("please", "help").
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any anyone anything are aren as ask at be because been before being " +
    "below between both but by can cannot cant could couldnt did didnt do does doesnt doing dont down during each else ever " +
    "every few for from further get gets getting give go going got had hasnt have havent having he hello her here hers hey hi " +
    "him his how hows i id if im in into is isnt it its itll ive just know let lets like me mine more most much must my myself " +
    "need needs no nor not now of off ok okay on once only or other ought our ours out over own please possible pls question " +
    "quick really regarding same say she should shouldnt so some someone something still such sure tell than thank thanks that " +
    "thats the their them then there theres these they this those through to too try trying under until up us use very want " +
    "wanted was wasnt way we were what whats when where which while who whom whos why will with within without wont would " +
    "wouldnt yes yet you youre your yours help hows able anyway kind sort thing things"
  ).split(" "),
);

/** Lower case without accents or apostrophes. */
function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/['’`]/g, "");
}

/** The words of a message that say what it is about, in order, without repeats (a bounded number). */
export function keywords(message: string): string[] {
  const words = normalize(message).split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)))].slice(0, KNOWLEDGE_QUERY_MAX_WORDS);
}

/** A crude stem for matching in JS ("refunds", "refunded" -> "refun"); Postgres stems properly. */
function stem(word: string): string {
  return word.length <= 4 ? word : word.slice(0, Math.max(4, Math.ceil(word.length * 0.75)));
}

function containsWord(normalizedText: string, word: string): boolean {
  return normalizedText.includes(stem(word));
}

// ---------------------------------------------------------------------------------------------
// Retrieval

/**
 * Articles that answer `words`: first those containing every word (the help search); failing
 * that, those containing at least half of them (an OR search, best covered first), so an extra
 * word ("... I am stuck on the dashboard") does not hide the right article.
 */
async function retrieve(deps: EngineDeps, agentId: string, words: string[]): Promise<ArticleHit[]> {
  const query = words.join(" ");
  const all = await searchVisibleArticles(deps.db, agentId, query, { limit: KNOWLEDGE_SEARCH_RESULTS, order: "relevance" });
  if (all.length > 0 || words.length < 3) return all;

  const candidates = await searchVisibleArticles(deps.db, agentId, query, {
    limit: KNOWLEDGE_SEARCH_RESULTS * 4,
    order: "relevance",
    match: "any",
  });
  const needed = Math.ceil(words.length / 2);
  return candidates
    .map((hit, position) => {
      const text = normalize(`${hit.title}\n${hit.content}`);
      return { hit, position, covered: words.filter((word) => containsWord(text, word)).length };
    })
    .filter((candidate) => candidate.covered >= needed)
    .sort((a, b) => b.covered - a.covered || a.position - b.position)
    .slice(0, KNOWLEDGE_SEARCH_RESULTS)
    .map((candidate) => candidate.hit);
}

// ---------------------------------------------------------------------------------------------
// Composing the answer

interface Section {
  heading: string;
  sentences: string[];
}

/** Plain text of inline Markdown tokens (links keep their text, code keeps its content). */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  return tokens
    .map((token) => {
      if (token.type === "html") return "";
      if ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0) return inlineText(token.tokens);
      return "text" in token && typeof token.text === "string" ? token.text : "";
    })
    .join("");
}

function sentencesOf(text: string): string[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return [];
  return flat
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

function asSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return /[.!?:;]$/.test(flat) ? flat : `${flat}.`;
}

/** The article as sections (the part before the first heading has an empty heading). */
function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: "", sentences: [] }];
  const addBlock = (token: Token) => {
    const current = sections[sections.length - 1]!;
    if (token.type === "heading") {
      sections.push({ heading: inlineText((token as Tokens.Heading).tokens), sentences: [] });
    } else if (token.type === "paragraph" || token.type === "text") {
      current.sentences.push(...sentencesOf(inlineText((token as Tokens.Paragraph).tokens)));
    } else if (token.type === "list") {
      for (const item of (token as Tokens.List).items) {
        // An item may hold paragraphs and nested lists; each item is one step or point.
        const text = item.tokens
          .map((child) => (child.type === "list" ? "" : inlineText("tokens" in child ? child.tokens : undefined)))
          .join(" ");
        if (text.trim()) current.sentences.push(...sentencesOf(asSentence(text)));
      }
    } else if (token.type === "table") {
      // Each row reads as "first cell: other cells." ("Credit or debit card: 5 to 10 business days.").
      for (const row of (token as Tokens.Table).rows) {
        const [first, ...rest] = row.map((cell) => inlineText(cell.tokens).trim());
        if (first) current.sentences.push(asSentence(rest.some(Boolean) ? `${first}: ${rest.filter(Boolean).join(", ")}` : first));
      }
    } else if (token.type === "blockquote") {
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(child);
    }
    // Code blocks, rules and HTML do not read well as a chat answer: the article link has them.
  };
  for (const token of marked.lexer(markdown)) addBlock(token);
  return sections.filter((section) => section.sentences.length > 0);
}

// What kind of answer a question wants, and the headings that give it: "how do I ..." wants steps
// ("How to request a refund"), "when/how long ..." wants timing ("When will I get my money?").
const QUESTION_KINDS: ReadonlyArray<{ question: RegExp; heading: RegExp }> = [
  { question: /\bhow\s+(?:do|can|could|should|would|to)\b/i, heading: /\bhow\b/i },
  { question: /\b(?:when|how\s+long|how\s+soon)\b/i, heading: /\b(?:when|how\s+long)\b/i },
];
const QUESTION_KIND_BONUS = 2.5;

function wordsIn(text: string, words: string[]): number {
  const normalized = normalize(text);
  return words.filter((word) => containsWord(normalized, word)).length;
}

/**
 * The best passage of an article for a question, in whole sentences up to
 * KNOWLEDGE_ANSWER_MAX_CHARS. The section is chosen by the question's words in its heading (double)
 * and text, plus a bonus when its heading is the kind of answer asked for; earlier sections win
 * ties. A section chosen for its heading is quoted from its start (steps stay complete); otherwise
 * from its sentence with most of the words.
 */
export function bestPassage(markdown: string, question: string): string {
  const words = keywords(question);
  const kinds = QUESTION_KINDS.filter((kind) => kind.question.test(question));
  let best: { section: Section; headingScore: number } | undefined;
  let bestScore = -1;
  for (const section of sectionsOf(markdown)) {
    const headingWords = wordsIn(section.heading, words);
    const bodyWords = wordsIn(section.sentences.join(" "), words);
    // The kind of heading counts only for a section about the question at all.
    const kindBonus =
      headingWords + bodyWords > 0 ? kinds.filter((kind) => kind.heading.test(section.heading)).length * QUESTION_KIND_BONUS : 0;
    const headingScore = 2 * headingWords + kindBonus;
    const score = headingScore + bodyWords;
    if (score > bestScore) {
      best = { section, headingScore };
      bestScore = score;
    }
  }
  if (!best) return "";

  const { sentences } = best.section;
  let start = 0;
  if (best.headingScore === 0) {
    let most = 0;
    sentences.forEach((sentence, index) => {
      const count = wordsIn(sentence, words);
      if (count > most) {
        most = count;
        start = index;
      }
    });
  }
  const chosen: string[] = [];
  let length = 0;
  for (const sentence of sentences.slice(start)) {
    if (chosen.length > 0 && length + sentence.length + 1 > KNOWLEDGE_ANSWER_MAX_CHARS) break;
    chosen.push(sentence);
    length += sentence.length + 1;
  }
  const passage = chosen.join(" ");
  return passage.length > KNOWLEDGE_ANSWER_MAX_CHARS ? `${passage.slice(0, KNOWLEDGE_ANSWER_MAX_CHARS - 1).trimEnd()}…` : passage;
}

// ---------------------------------------------------------------------------------------------
// Replies

const TALK_TO_PERSON: RichContentItem = { type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] };

/** "Hi Ada, " the first time the agent answers a visitor whose name it knows, else "". */
function greeting(input: EngineInput): string {
  const name = input.visitor.name?.trim();
  if (!name) return "";
  const greeted = input.history.some((message) => message.role === "agent" && message.text.startsWith(`Hi ${name}`));
  return greeted ? "" : `Hi ${name}, `;
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

export function createKnowledgeEngine(deps: EngineDeps): Engine {
  return {
    async run(input: EngineInput): Promise<EngineResult> {
      const greet = greeting(input);
      const message = input.message.trim();

      if (asksForHuman(message)) {
        const reply = opening(
          greet,
          "Of course. I've asked a person from our team to take over this conversation; they will follow up here.",
        );
        return result(input, reply, {
          toolCalls: [{ name: HANDOFF_TOOL, args: { reason: "The visitor asked for a person." } }],
          handoff: true,
        });
      }
      if (GREETING.test(message)) {
        return result(
          input,
          greet ? `Hi ${input.visitor.name!.trim()}! How can I help you today?` : "Hello! How can I help you today?",
          {},
        );
      }
      if (THANKS.test(message)) {
        return result(input, opening(greet, "You're welcome! Is there anything else I can help with?"), {});
      }

      const words = keywords(message);
      const hits = words.length > 0 ? await retrieve(deps, input.agent.id, words) : [];
      const toolCalls: ToolCall[] = [{ name: SEARCH_TOOL, args: { query: message } }];
      const best = hits[0];

      if (!best) {
        const reply = previousTurnUnanswered(input.history)
          ? opening(
              greet,
              "I'm sorry, I couldn't find that in our help articles either. Would you like to talk to a person? Choose “Talk to a person” and someone from our team will follow up here.",
            )
          : opening(
              greet,
              "I'm sorry, I don't know the answer to that: I couldn't find it in our help articles. You can rephrase your question, or talk to a person.",
            );
        return result(input, reply, { toolCalls, richContent: [TALK_TO_PERSON] });
      }

      const passage = bestPassage(best.content, message) || best.title;
      const reply = opening(greet, `From “${best.title}”: ${passage}`);
      const articles = hits.map((hit) => ({ id: hit.id, title: hit.title, url: helpArticleUrl(deps.appUrl, input.agent.id, hit.id) }));
      return result(input, reply, {
        context: hits.map((hit) => `${hit.title}\n${hit.content}`),
        toolCalls,
        richContent: [{ type: "articles", articles }],
      });
    },
  };
}
