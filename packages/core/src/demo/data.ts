// The demo data: fixed ids that the tests, the e2e journeys and the bench rely on. This file is the
// table only; article bodies are Markdown files in ./articles/<id>.md, and seed.ts writes both to
// the database. Timestamps are fixed so that a re-seed changes nothing and "most recent first"
// orderings are deterministic.

export const demoWorkspace = {
  id: "ws-demo",
  name: "Demo",
  createdAt: new Date("2026-01-05T09:00:00.000Z"),
};

export const demoAdmin = {
  id: "user-admin",
  name: "Demo admin",
};

export interface DemoAgent {
  id: string;
  name: string;
  active: boolean;
  httpApiEnabled: boolean;
  monthlyConversationLimit: number | null;
  monthlyTokenLimit: number | null;
  instructions: string;
  /** Widget origins; the demo agent also allows the app's own origin (SeedOptions.appOrigin). */
  allowedOrigins: string[];
  allowsAppOrigin?: boolean;
  createdAt: Date;
}

const agentDefaults = {
  active: true,
  httpApiEnabled: true,
  monthlyConversationLimit: null,
  monthlyTokenLimit: null,
  instructions: "",
  allowedOrigins: [],
} satisfies Partial<DemoAgent>;

// No agent gets a key here: keys are generated at run time (demo-nokey never gets one) and the
// seed never touches an agent's key fields.
export const demoAgents: DemoAgent[] = [
  {
    ...agentDefaults,
    id: "demo",
    name: "Acme Cloud help assistant",
    instructions:
      "You are the help assistant of Acme Cloud. Answer from the help centre articles, cite the article you used, keep answers short, and offer to hand over to a person when you cannot help.",
    allowsAppOrigin: true,
    createdAt: new Date("2026-01-05T09:10:00.000Z"),
  },
  {
    ...agentDefaults,
    id: "demo-disabled",
    name: "Demo agent (HTTP API disabled)",
    httpApiEnabled: false,
    createdAt: new Date("2026-01-05T09:11:00.000Z"),
  },
  { ...agentDefaults, id: "demo-nokey", name: "Demo agent (no key)", createdAt: new Date("2026-01-05T09:12:00.000Z") },
  { ...agentDefaults, id: "demo-inactive", name: "Demo agent (inactive)", active: false, createdAt: new Date("2026-01-05T09:13:00.000Z") },
  {
    ...agentDefaults,
    id: "demo-quota",
    name: "Demo agent (2 conversations a month)",
    monthlyConversationLimit: 2,
    createdAt: new Date("2026-01-05T09:14:00.000Z"),
  },
  {
    ...agentDefaults,
    id: "demo-tokens",
    name: "Demo agent (1 token a month)",
    monthlyTokenLimit: 1,
    createdAt: new Date("2026-01-05T09:15:00.000Z"),
  },
];

export interface DemoSource {
  id: string;
  name: string;
  active: boolean;
  /** Agents linked to this source. */
  agentIds: string[];
  createdAt: Date;
}

export const demoSources: DemoSource[] = [
  {
    id: "src-start",
    name: "Getting started",
    active: true,
    agentIds: ["demo", "demo-inactive"],
    createdAt: new Date("2026-01-06T10:00:00.000Z"),
  },
  { id: "src-billing", name: "Billing", active: true, agentIds: ["demo"], createdAt: new Date("2026-01-06T10:01:00.000Z") },
  { id: "src-internal", name: "Internal notes", active: true, agentIds: [], createdAt: new Date("2026-01-06T10:02:00.000Z") },
  // Holds only unpublished articles: must never be listed as a help collection.
  { id: "src-drafts", name: "Drafts", active: true, agentIds: ["demo"], createdAt: new Date("2026-01-06T10:03:00.000Z") },
  { id: "src-retired", name: "Retired", active: false, agentIds: ["demo"], createdAt: new Date("2026-01-06T10:04:00.000Z") },
];

export interface DemoArticle {
  id: string;
  sourceId: string;
  title: string;
  published: boolean;
  active: boolean;
  createdAt: Date;
  /** Distinct for every article so that "most recent first" has one answer. */
  updatedAt: Date;
  /** Set for published articles only. */
  publishedAt: Date | null;
}

// Hidden articles (draft, archived, internal, in an unlinked or inactive source) deliberately
// share words with visible ones (password, refund, API key, invoice), so searches can tell
// visibility apart from relevance.
export const demoArticles: DemoArticle[] = [
  {
    id: "art-welcome",
    sourceId: "src-start",
    title: "Welcome to Acme Cloud",
    published: true,
    active: true,
    createdAt: new Date("2026-01-10T09:00:00.000Z"),
    updatedAt: new Date("2026-09-15T09:00:00.000Z"),
    publishedAt: new Date("2026-01-12T09:00:00.000Z"),
  },
  {
    id: "art-reset-password",
    sourceId: "src-start",
    title: "How to reset your password",
    published: true,
    active: true,
    createdAt: new Date("2026-01-10T09:05:00.000Z"),
    updatedAt: new Date("2026-10-08T08:15:00.000Z"),
    publishedAt: new Date("2026-01-12T09:05:00.000Z"),
  },
  {
    id: "art-api-keys",
    sourceId: "src-start",
    title: "Creating and managing API keys",
    published: true,
    active: true,
    createdAt: new Date("2026-01-10T09:10:00.000Z"),
    updatedAt: new Date("2026-10-14T15:30:00.000Z"),
    publishedAt: new Date("2026-01-12T09:10:00.000Z"),
  },
  {
    id: "art-start-draft",
    sourceId: "src-start",
    title: "Signing in with single sign-on (SSO)",
    published: false,
    active: true,
    createdAt: new Date("2026-10-30T11:00:00.000Z"),
    updatedAt: new Date("2026-11-02T16:20:00.000Z"),
    publishedAt: null,
  },
  {
    id: "art-start-archived",
    sourceId: "src-start",
    title: "Account settings in the Classic dashboard",
    published: true,
    active: false,
    createdAt: new Date("2025-01-20T09:15:00.000Z"),
    updatedAt: new Date("2025-06-30T12:00:00.000Z"),
    publishedAt: new Date("2025-01-21T09:15:00.000Z"),
  },
  {
    id: "art-refunds",
    sourceId: "src-billing",
    title: "Refund policy and how to request a refund",
    published: true,
    active: true,
    createdAt: new Date("2026-01-11T14:00:00.000Z"),
    updatedAt: new Date("2026-09-29T13:45:00.000Z"),
    publishedAt: new Date("2026-01-12T14:00:00.000Z"),
  },
  {
    id: "art-invoices",
    sourceId: "src-billing",
    title: "Finding, downloading and correcting invoices",
    published: true,
    active: true,
    createdAt: new Date("2026-01-11T14:05:00.000Z"),
    updatedAt: new Date("2026-10-20T10:00:00.000Z"),
    publishedAt: new Date("2026-01-12T14:05:00.000Z"),
  },
  {
    id: "art-internal",
    sourceId: "src-internal",
    title: "Support runbook: refunds and account access",
    published: true,
    active: true,
    createdAt: new Date("2026-02-03T08:00:00.000Z"),
    updatedAt: new Date("2026-10-25T07:40:00.000Z"),
    publishedAt: new Date("2026-02-03T08:00:00.000Z"),
  },
  {
    id: "art-draft-only",
    sourceId: "src-drafts",
    title: "Storage add-on pricing (draft)",
    published: false,
    active: true,
    createdAt: new Date("2026-11-01T09:30:00.000Z"),
    updatedAt: new Date("2026-11-05T17:05:00.000Z"),
    publishedAt: null,
  },
  {
    id: "art-retired",
    sourceId: "src-retired",
    title: "Legacy v1 API tokens",
    published: true,
    active: true,
    createdAt: new Date("2025-02-01T10:00:00.000Z"),
    updatedAt: new Date("2025-03-12T10:00:00.000Z"),
    publishedAt: new Date("2025-02-01T10:00:00.000Z"),
  },
];
