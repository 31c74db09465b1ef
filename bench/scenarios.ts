// The requests of each scenario, identical for the app and the baseline. Each scenario cycles
// through a set of URLs (or bodies) so neither server can answer from a warm single-entry cache.
import path from "node:path";
import { loadQuestions } from "@parley/testing/eval-corpus";
import type { AutocannonRequest } from "autocannon";
import { QUESTIONS, SUBSTRING_QUERIES, WORD_QUERIES } from "./corpus.ts";
import { INBOX_SEARCH_QUERIES, inboxListPath } from "./inbox.ts";

export const SCENARIOS = [
  "help collections",
  "article list",
  "search words",
  "search substring",
  "article read",
  "knowledge turn",
  "eval turns",
  "inbox search",
  "inbox list",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The help scenarios (the throughput-ratio target applies to these). */
export const HELP_SCENARIOS: readonly ScenarioName[] = [
  "help collections",
  "article list",
  "search words",
  "search substring",
  "article read",
];

/** The panel's inbox over a million messages: the app alone (the baseline serves no panel). */
export const INBOX_SCENARIOS: readonly ScenarioName[] = ["inbox search", "inbox list"];

/**
 * The eval's visitor questions (eval/corpora/kestrel/questions, dev and test), each sent alone: a follow-up without
 * its earlier turns. The files group questions by type and language, so they are interleaved
 * (ordered by the fractional part of index times the golden ratio): any run, however short, sends
 * a spread of the whole set.
 */
export const EVAL_QUESTIONS: readonly string[] = loadQuestions(
  path.join(import.meta.dirname, "..", "eval", "corpora", "kestrel", "questions"),
)
  .map((question, index) => ({ text: question.question, key: (index * 0.6180339887498949) % 1 }))
  .sort((a, b) => a.key - b.key)
  .map((question) => question.text);

export interface ScenarioInput {
  agentId: string;
  apiKey: string;
  /** The agent over the eval's corpus (eval turns). */
  evalAgent?: { agentId: string; apiKey: string };
  linkedSourceIds: string[];
  /** Visible articles to read (e.g. 50). */
  articleIds: string[];
  /** The panel session's Cookie header (inbox scenarios). */
  sessionCookie?: string;
}

/** A browser's User-Agent, so that the article reads count views as readers' do. */
const READER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export function scenarioRequests(name: ScenarioName, input: ScenarioInput): AutocannonRequest[] {
  const base = `/api/agent/${encodeURIComponent(input.agentId)}`;
  const get = (path: string): AutocannonRequest => ({ method: "GET", path });
  // Every turn starts a new conversation (no conversationId).
  const turn = (agent: { agentId: string; apiKey: string }, message: string): AutocannonRequest => ({
    method: "POST",
    path: `/api/agent/${encodeURIComponent(agent.agentId)}/messages`,
    headers: { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ message }),
  });
  switch (name) {
    case "help collections":
      return [get(`${base}/help`)];
    case "article list":
      // The whole help centre, and each collection.
      return [
        get(`${base}/help/articles`),
        ...input.linkedSourceIds.map((id) => get(`${base}/help/articles?source=${encodeURIComponent(id)}`)),
      ];
    case "search words":
      return WORD_QUERIES.map((q) => get(`${base}/help/articles?q=${encodeURIComponent(q)}`));
    case "search substring":
      return SUBSTRING_QUERIES.map((q) => get(`${base}/help/articles?q=${encodeURIComponent(q)}`));
    case "article read":
      // As a browser reads them: each read goes through the view counter (a crawler's is skipped early).
      return input.articleIds.map((id) => ({
        ...get(`${base}/help/articles/${encodeURIComponent(id)}`),
        headers: { "user-agent": READER_USER_AGENT },
      }));
    case "knowledge turn":
      return QUESTIONS.map((message) => turn(input, message));
    case "eval turns": {
      const agent = input.evalAgent;
      if (!agent) throw new Error("eval turns need the eval corpus's agent (createEvalFixture)");
      return EVAL_QUESTIONS.map((message) => turn(agent, message));
    }
    case "inbox search": {
      const headers = { cookie: input.sessionCookie ?? "" };
      return INBOX_SEARCH_QUERIES.map((q) => ({ method: "GET", path: inboxListPath({ q, limit: 25 }), headers }));
    }
    case "inbox list": {
      // The first page as a support team opens it: everything, the unassigned queue, escalations.
      const headers = { cookie: input.sessionCookie ?? "" };
      return [{}, { assignee: "unassigned" }, { status: "escalated" }, { channel: "widget" }].map((filters) => ({
        method: "GET",
        path: inboxListPath({ ...filters, limit: 25 }),
        headers,
      }));
    }
  }
}
