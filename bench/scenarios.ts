// The requests of each scenario, identical for the app and the baseline. Each scenario cycles
// through a set of URLs (or bodies) so neither server can answer from a warm single-entry cache.
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

export interface ScenarioInput {
  agentId: string;
  apiKey: string;
  linkedSourceIds: string[];
  /** Visible articles to read (e.g. 50). */
  articleIds: string[];
  /** The panel session's Cookie header (inbox scenarios). */
  sessionCookie?: string;
}

export function scenarioRequests(name: ScenarioName, input: ScenarioInput): AutocannonRequest[] {
  const base = `/api/agent/${encodeURIComponent(input.agentId)}`;
  const get = (path: string): AutocannonRequest => ({ method: "GET", path });
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
      return input.articleIds.map((id) => get(`${base}/help/articles/${encodeURIComponent(id)}`));
    case "knowledge turn":
      // Every turn starts a new conversation (no conversationId).
      return QUESTIONS.map((message) => ({
        method: "POST",
        path: `${base}/messages`,
        headers: { authorization: `Bearer ${input.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ message }),
      }));
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
