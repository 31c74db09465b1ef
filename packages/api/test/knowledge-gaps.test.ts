// The unanswered-questions page through its procedures on a real database: near-duplicate
// questions in one group (case, plurals, punctuation, word order, a wording stored under another
// language's analysis), requests for a person never listed, a group dismissed by a person who may
// change the knowledge base (audited, refused to others with core's readable text), and the page's
// totals equal to the panel home's figure.
import { gapKey } from "@parley/core/knowledge";
import type { TestContext } from "@parley/testing/context";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

type Kind = "unanswered" | "handoff" | "not_helpful" | "no_search_result";

/** Gap rows as the recorders store them; `normalized` is given where a test needs a stored key of its own. */
async function gaps(agentId: string, rows: Array<{ question: string; kind?: Kind; at: number; normalized?: string }>) {
  await ctx.db.prisma.knowledgeGap.createMany({
    data: rows.map((row) => ({
      agentId,
      kind: row.kind ?? "unanswered",
      question: row.question,
      normalized: row.normalized ?? gapKey(row.question),
      createdAt: ago(row.at),
    })),
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const { code, message, cause } = error as TRPCError;
  const details = (cause as { details?: string } | undefined)?.details;
  return details === undefined ? { code, message } : { code, message, details };
}

describe("the unanswered-questions page", () => {
  it("groups near-duplicates, leaves requests for a person out, and counts what the home page counts", async () => {
    await gaps(a.agentId, [
      { question: "kubernetes helm chart", at: 5 * DAY },
      { question: "Kubernetes helm charts", at: 2 * DAY, kind: "not_helpful" },
      { question: "Helm charts for Kubernetes?", at: 3 * HOUR },
      { question: "kubernetes, helm-chart", at: 10 * DAY, kind: "no_search_result" },
      // Stored when the question read as German: another stem, the same words.
      { question: "Kubernetes Helm Charts!", at: 20 * DAY, normalized: "charts helm kubernetes" },
      // Other questions: another intent (install), another subject.
      { question: "How do I install the Kubernetes Helm chart?", at: 1 * DAY },
      { question: "Parrot delivery", at: 12 * DAY },
      // Never gaps of the knowledge base: a request for a person (recorded before that rule).
      { question: "Talk to a person", at: HOUR, kind: "handoff" },
      { question: "I want to talk to a human", at: 2 * HOUR, kind: "handoff" },
      // Out of the 30 days.
      { question: "kubernetes helm chart", at: 31 * DAY },
    ]);
    await gaps(b.agentId, [{ question: "kubernetes helm chart", at: HOUR }]);

    const owner = callerFor(ctx, a.scope);
    const page = await owner.articles.gaps({});
    expect(page.groups.map((group) => [group.question, group.last7Days, group.last30Days, group.variants])).toEqual([
      [
        "Helm charts for Kubernetes?",
        3,
        5,
        // The other wordings, each one's latest question.
        ["Kubernetes helm charts", "kubernetes helm chart", "kubernetes, helm-chart"],
      ],
      ["How do I install the Kubernetes Helm chart?", 1, 1, []],
      ["Parrot delivery", 0, 1, []],
    ]);
    expect(page.groups[0]!.kinds).toEqual({ unanswered: 3, not_helpful: 1, no_search_result: 1 });
    expect(page.groups[0]!.lastAskedAt).toEqual(ago(3 * HOUR));
    expect(JSON.stringify(page)).not.toMatch(/talk to a (person|human)/i);
    expect(page.counts).toEqual({ last7Days: 4, last30Days: 7 });

    // The home page's figure and its per-agent column are the same query.
    const home = await owner.home.get();
    expect(home.unansweredThisWeek).toBe(page.counts.last7Days);
    expect(home.activity.find((agent) => agent.agentId === a.agentId)?.unanswered).toBe(page.counts.last7Days);
  });

  it("dismisses a group with its near-duplicates for the roles that may change the knowledge base, audited", async () => {
    const refused = { code: "FORBIDDEN", message: "Forbidden" };
    const wording = (await callerFor(ctx, a.scope).articles.gaps({})).groups[0]!.wording;
    expect(await refusal(callerFor(ctx, { ...a.scope, role: "support" }).articles.dismissGap({ wording }))).toEqual({
      ...refused,
      details:
        "Your role does not allow changing the knowledge base: only owners, admins and editors may. An owner of the workspace can change your role.",
    });
    expect(await refusal(callerFor(ctx, { ...a.scope, role: "support" }).articles.gaps({}))).toEqual({
      ...refused,
      details:
        "Your role does not allow reading the knowledge base: only owners, admins and editors may. An owner of the workspace can change your role.",
    });
    // From another site: refused without a word of why.
    expect(await refusal(callerFor(ctx, a.scope, { sameOrigin: false }).articles.dismissGap({ wording }))).toEqual(refused);
    // Another workspace's person cannot reach this workspace's group.
    expect(await refusal(callerFor(ctx, b.scope).articles.dismissGap({ wording: "chart helm instal kubernet" }))).toMatchObject({
      code: "NOT_FOUND",
    });

    const editor = callerFor(ctx, { ...a.scope, role: "editor" }, { client: { ip: "203.0.113.9", userAgent: "test" } });
    // Dismissed by any of the group's wordings: all five questions of the group.
    expect(await editor.articles.dismissGap({ wording })).toEqual({ dismissed: 5 });
    const page = await editor.articles.gaps({});
    expect(page.groups.map((group) => group.question)).toEqual(["How do I install the Kubernetes Helm chart?", "Parrot delivery"]);
    expect(page.counts).toEqual({ last7Days: 1, last30Days: 2 });
    expect((await callerFor(ctx, a.scope).home.get()).unansweredThisWeek).toBe(1);
    // Stored: the rows are kept, marked; another workspace's same question is untouched.
    expect(await ctx.db.prisma.knowledgeGap.count({ where: { agentId: a.agentId, dismissedAt: NOW } })).toBe(5);
    expect(await ctx.db.prisma.knowledgeGap.count({ where: { agentId: b.agentId, dismissedAt: null } })).toBe(1);
    const logged = await ctx.db.prisma.auditEvent.findFirst({
      where: { workspaceId: a.scope.workspaceId, action: "knowledgeGap.dismissed" },
    });
    expect(logged).toMatchObject({
      actorUserId: a.scope.userId,
      targetType: "knowledgeGap",
      targetId: expect.stringMatching(/\S/),
      // Counted, never quoted: an erasure of the visitors' data leaves nothing of their words here.
      targetLabel: "a group of 5 unanswered questions",
      detail: { questions: 5 },
      ip: "203.0.113.9",
    });
    // Nothing left under that wording: 404.
    expect(await refusal(editor.articles.dismissGap({ wording }))).toMatchObject({ code: "NOT_FOUND", message: "Not found" });

    // Asked again after the dismissal: listed anew.
    await gaps(a.agentId, [{ question: "Kubernetes helm charts?", at: 0 }]);
    expect((await editor.articles.gaps({})).groups.map((group) => [group.question, group.last30Days])).toContainEqual([
      "Kubernetes helm charts?",
      1,
    ]);
  });

  it("dismisses one agent's questions when the page is filtered by that agent", async () => {
    const second = await ctx.db.prisma.agent.create({ data: { workspaceId: a.scope.workspaceId, name: "Gaps second agent" } });
    await gaps(second.id, [{ question: "Parrot delivery", at: HOUR }]);
    const owner = callerFor(ctx, a.scope);
    const only = await owner.articles.gaps({ agentId: second.id });
    expect(only.groups.map((group) => group.question)).toEqual(["Parrot delivery"]);
    expect(await owner.articles.dismissGap({ wording: only.groups[0]!.wording, agentId: second.id })).toEqual({ dismissed: 1 });
    // The first agent's "Parrot delivery" is still open.
    expect((await owner.articles.gaps({})).groups.map((group) => group.question)).toContain("Parrot delivery");
  });
});
