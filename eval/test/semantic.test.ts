// The eval's semantic retrieval: the corpus embedded through an OpenAI-compatible endpoint (the
// deterministic fake of core's tests) by the app's own worker before any question.

import { pgvectorUsable } from "@parley/core/knowledge";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { type Article, loadCorpus } from "@parley/testing/eval-corpus";
import { type FakeEmbeddings, startFakeEmbeddings } from "@parley/testing/fake-embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedCorpus, evalSemanticSearch } from "../src/semantic.ts";

const articles: Article[] = [
  {
    id: "reset-password",
    collection: "accounts",
    title: "Reset your password",
    language: "en",
    content: "Open the sign-in page.\n\n## Forgotten password\n\nChoose Forgot password and follow the email.",
  },
  { id: "refunds", collection: "billing", title: "Refunds", language: "en", content: "We refund a wrong charge within ten days." },
];

let fake: FakeEmbeddings;
let ctx: TestContext;
let semantic: ReturnType<typeof evalSemanticSearch> | undefined;

beforeAll(async () => {
  fake = await startFakeEmbeddings();
  const config = { baseUrl: fake.baseUrl, model: "bow-1" };
  ctx = await createTestContext({ semantic: (db) => (semantic = evalSemanticSearch(db, config)) });
  await loadCorpus(
    ctx.db,
    [
      { id: "accounts", name: "Accounts" },
      { id: "billing", name: "Billing" },
    ],
    articles,
  );
});

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe("embedCorpus", () => {
  it("embeds every passage of every article before the questions and loads the vectors", async () => {
    expect(semantic).toBeDefined();
    const line = await embedCorpus(ctx.db, semantic!);
    expect(line).toMatch(/^Embedded 3 passages of 2 articles with bow-1 in \d+ ms; searched by (pgvector|the in-process index)\.$/);
    // Auto: pgvector only on a PostgreSQL server that has it.
    const byPgvector = ctx.db.mode === "server" && (await pgvectorUsable(ctx.db));
    expect(line.endsWith(`searched by ${byPgvector ? "pgvector" : "the in-process index"}.`)).toBe(true);
    expect(fake.inputs().sort()).toEqual([
      "Refunds\nWe refund a wrong charge within ten days.",
      "Reset your password\nForgotten password\nChoose Forgot password and follow the email.",
      "Reset your password\nOpen the sign-in page.",
    ]);
    expect(await semantic!.passages.count()).toBe(3);
  });

  it("stops the run when the endpoint fails, naming how many articles failed", async () => {
    await ctx.db.prisma.article.update({ where: { id: "refunds" }, data: { content: "We refund a wrong charge within five days." } });
    fake.mode = { kind: "error", status: 500 };
    await expect(embedCorpus(ctx.db, semantic!)).rejects.toThrow("Embedding the corpus failed for 1 articles (see the warnings above)");
    fake.mode = { kind: "ok" };
  });
});
