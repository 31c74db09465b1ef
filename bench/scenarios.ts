// The requests of each scenario, identical for the app and the baseline. Each scenario cycles
// through a set of URLs (or bodies) so neither server can answer from a warm single-entry cache.
import type { AutocannonRequest } from "autocannon";
import { QUESTIONS, SUBSTRING_QUERIES, WORD_QUERIES } from "./corpus.ts";

export const SCENARIOS = [
  "help collections",
  "article list",
  "search words",
  "search substring",
  "article read",
  "knowledge turn",
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

export interface ScenarioInput {
  agentId: string;
  apiKey: string;
  linkedSourceIds: string[];
  /** Visible articles to read (e.g. 50). */
  articleIds: string[];
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
  }
}
