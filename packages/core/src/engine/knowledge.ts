// The knowledge agent (the default engine; no network): answers from the agent's visible help
// articles, found with the help centre's own search (help/search.ts, so the same visibility rule),
// quoting the best passage and naming its article. It hands over to a person when asked, says
// plainly when it does not know, and then offers a person. What a message asks for is read in
// intent.ts, its words in text.ts; the quoted passage is chosen in passage.ts.
//
// tokenUsage: tokens (gpt-tokenizer, o200k_base) of the visitor's message + the retrieved context
// (title and content of every article the answer was drawn from or links to) + the reply; what an
// LLM would have consumed to give this answer from this context.
import { type ArticleHit, searchVisibleArticles } from "../help/search.ts";
import { helpArticleUrl } from "../help/urls.ts";
import { KNOWLEDGE_SEARCH_RESULTS } from "../limits.ts";
import { countTokens } from "../tokens.ts";
import { asksForHuman, isGreeting, isThanks } from "./intent.ts";
import { bestPassage } from "./passage.ts";
import { keywords, wordsIn } from "./text.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { Engine, EngineDeps, EngineHistoryMessage, EngineInput, EngineResult, RichContentItem, ToolCall } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Retrieval

/**
 * Articles that answer `words`: first those containing every word (the help search); failing
 * that, those containing at least half of them (an OR search, best covered first), so an extra
 * word ("... I am stuck on the dashboard") does not hide the right article. The LLM engine grounds
 * its answers on this too (grounding.ts).
 */
export async function retrieve(deps: EngineDeps, agentId: string, words: string[]): Promise<ArticleHit[]> {
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
      return { hit, position, covered: wordsIn(`${hit.title}\n${hit.content}`, words) };
    })
    .filter((candidate) => candidate.covered >= needed)
    .sort((a, b) => b.covered - a.covered || a.position - b.position)
    .slice(0, KNOWLEDGE_SEARCH_RESULTS)
    .map((candidate) => candidate.hit);
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
      if (isGreeting(message)) {
        return result(
          input,
          greet ? `Hi ${input.visitor.name!.trim()}! How can I help you today?` : "Hello! How can I help you today?",
          {},
        );
      }
      if (isThanks(message)) {
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
