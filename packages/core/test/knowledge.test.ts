// The knowledge agent over the demo help centre (src/demo/data.ts): answers naming the right article,
// related links, "I don't know" with a person button, handoff detection, greetings, the token
// count. Real database, either mode.

import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { asksForHuman } from "../src/engine/intent.ts";
import { createKnowledgeEngine } from "../src/engine/knowledge.ts";
import { quoteSection } from "../src/engine/passage.ts";
import { countTokens } from "../src/engine/tokens.ts";
import type { Engine, EngineHistoryMessage, EngineInput } from "../src/engine/types.ts";
import { sectionsOf } from "../src/knowledge/articles/sections.ts";
import { termsOf } from "../src/knowledge/search/analyze.ts";
import { renderMessageHtml } from "../src/platform/markdown.ts";

let db: TestDatabase;
let engine: Engine;
const APP_URL = "https://parley.example";
const demo = { id: "demo", name: "Acme Cloud help assistant", engine: "knowledge" as const, instructions: "" };

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "admin@example.com", adminPassword: "test-password-1" });
  engine = createKnowledgeEngine({ db, appUrl: APP_URL });
});

afterAll(async () => {
  await db.close();
});

/** The answer to "How do I reset my password?": the demo article's steps, still steps. */
const RESET_REPLY = [
  "From “How to reset your password”:",
  "",
  "1. Go to the sign-in page at app.acmecloud.example/login.",
  "2. Choose Forgot password? under the password field.",
  "3. Enter the email address you use for Acme Cloud and choose Send reset link.",
  '4. Open the email titled "Reset your Acme Cloud password" and select Choose a new password.',
  "5. Type your new password twice and choose Save. You are signed in right away.",
  "",
  "The reset link works once and expires after 60 minutes. If it has expired, simply request a new one; only the most recent link is valid.",
].join("\n");

function input(message: string, extra: Partial<EngineInput> = {}): EngineInput {
  return { agent: demo, history: [], message, visitor: {}, variables: {}, status: "active", ...extra };
}

function articleIds(result: Awaited<ReturnType<Engine["run"]>>): string[] {
  const item = result.richContent.find((content) => content.type === "articles");
  return item?.type === "articles" ? item.articles.map((article) => article.id) : [];
}

describe("answers from the articles", () => {
  it("answers the password question from the reset article, naming it", async () => {
    const result = await engine.run(input("How do I reset my password?"));
    // The passage is the section on resetting, in whole sentences, laid out as the article has
    // it: its five steps a numbered list (the words without the article's emphasis and links),
    // the paragraph after them a paragraph.
    expect(result.reply).toBe(RESET_REPLY);
    expect(result.toolCalls).toEqual([{ name: "search_knowledge_base", args: { query: "How do I reset my password?" } }]);
    expect(articleIds(result)[0]).toBe("art-reset-password");
    expect(result.richContent[0]).toMatchObject({
      type: "articles",
      articles: [{ id: "art-reset-password", title: "How to reset your password", url: `${APP_URL}/help/demo/articles/reset-password` }],
    });
    expect(result.handoffRequested).toBe(false);
  });

  it("answers refunds from the refund article", async () => {
    const result = await engine.run(input("How can I request a refund?"));
    expect(result.reply).toBe(
      [
        "From “Refund policy and how to request a refund”:",
        "",
        "1. Open Settings → Billing → Invoices.",
        "2. Find the payment and choose Request a refund from the ⋯ menu.",
        "3. Tell us briefly why you are asking; it helps us improve.",
        "",
        "Only workspace Owners and Billing admins can request refunds. You can also write to billing@acmecloud.example from the address on the account; include the invoice number (it starts with AC-).",
      ].join("\n"),
    );
    expect(articleIds(result)[0]).toBe("art-refunds");
  });

  it("finds the article when the question says it in other words (a built-in synonym)", async () => {
    const result = await engine.run(input("I can't remember my password, what now?"));
    expect(articleIds(result)[0]).toBe("art-reset-password");
  });

  it("never answers from hidden articles (draft, internal, inactive source)", async () => {
    // "single sign-on" appears only in an unpublished draft title and in the visible reset article body.
    const sso = await engine.run(input("Storage add-on pricing"));
    expect(articleIds(sso)).not.toContain("art-draft-only");
    const runbook = await engine.run(input("support runbook account access"));
    expect(articleIds(runbook)).not.toContain("art-internal");
    const legacy = await engine.run(input("legacy v1 API tokens"));
    expect(articleIds(legacy)).not.toContain("art-retired");
  });

  it("counts tokens of message, retrieved articles and reply with the tokenizer", async () => {
    const message = "How do I reset my password?";
    const result = await engine.run(input(message));
    const articles = await db.prisma.article.findMany({ where: { id: { in: articleIds(result) } } });
    const context = articles.reduce((sum, article) => sum + countTokens(`${article.title}\n${article.content}`), 0);
    expect(result.tokenUsage).toBe(countTokens(message) + context + countTokens(result.reply));
    expect(result.tokenUsage).toBeGreaterThan(100);
  });
});

describe("the language of the reply", () => {
  it("is the help centre's for a short message of its words that the detector reads as another language", async () => {
    // "cancel plan" scores as Spanish; the English articles write both words.
    const result = await engine.run(input("cancel plan"));
    expect(result.reply).toMatch(/^(From “|I'm sorry)/);
    expect(result.reply).not.toMatch(/Lo siento|Del artículo|De l'article/);
  });

  it("is the visitor's for a short message the English articles do not write", async () => {
    const result = await engine.run(input("contraseña olvidada"));
    expect(result.reply).not.toMatch(/^(From “|I'm sorry)/);
  });
});

describe("when it does not know", () => {
  it("says so plainly and offers a person", async () => {
    const result = await engine.run(input("Do you sell garden furniture?"));
    expect(result.reply).toContain("I don't know");
    expect(result.richContent).toEqual([{ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] }]);
    expect(result.toolCalls).toEqual([{ name: "search_knowledge_base", args: { query: "Do you sell garden furniture?" } }]);
    expect(result.handoffRequested).toBe(false);
    expect(result.tokenUsage).toBe(countTokens("Do you sell garden furniture?") + countTokens(result.reply));
  });

  it("offers a person outright on the second unanswered turn in a row", async () => {
    const first = await engine.run(input("Do you sell garden furniture?"));
    const history: EngineHistoryMessage[] = [
      { role: "user", text: "Do you sell garden furniture?", toolCalls: [] },
      { role: "agent", text: first.reply, toolCalls: first.toolCalls, answered: false },
    ];
    const second = await engine.run(input("What about garden chairs?", { history }));
    expect(second.reply).toContain("Would you like to talk to a person?");
    expect(second.richContent).toEqual([{ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] }]);
    expect(second.handoffRequested).toBe(false);

    // After an answered turn, the streak starts over.
    const answered: EngineHistoryMessage[] = [{ role: "agent", text: "From ...", toolCalls: first.toolCalls, answered: true }];
    const fresh = await engine.run(input("What about garden chairs?", { history: answered }));
    expect(fresh.reply).not.toContain("Would you like to talk to a person?");
    expect(fresh.reply).toContain("I don't know");
  });

  it("answers a question complete on its own although the earlier messages were about something else", async () => {
    const history: EngineHistoryMessage[] = [
      { role: "user", text: "My invoice shows the wrong VAT number", toolCalls: [] },
      { role: "agent", text: "From ...", toolCalls: [], answered: true },
      { role: "user", text: "I want to talk to a human", toolCalls: [] },
      { role: "agent", text: "Of course.", toolCalls: [], answered: true },
    ];
    const result = await engine.run(input("How do I get a refund?", { history }));
    expect(result.reply.startsWith("From “Refund policy and how to request a refund”:")).toBe(true);
    expect(articleIds(result)[0]).toBe("art-refunds");
  });
});

describe("handoff", () => {
  it.each([
    "Can I talk to a human?",
    "I want to speak to a person",
    "talk to an agent please",
    "Please connect me with a real person",
    "representative",
    "Can I speak to support staff?",
    "I need a human",
    "human please",
    "Operator!",
    "let me chat with someone from your team",
  ])("%s -> handoff", async (message) => {
    expect(asksForHuman(message)).toBe(true);
    const result = await engine.run(input(message));
    expect(result.handoffRequested).toBe(true);
    expect(result.reply).toContain("will follow up");
    expect(result.toolCalls).toEqual([{ name: "request_human", args: { reason: "The visitor asked for a person." } }]);
    expect(result.richContent).toEqual([]);
  });

  it.each(["How do I connect my agent to Slack?", "How do I reset my password?", "Who can request a refund?", "What is an API key?"])(
    "%s -> no handoff",
    (message) => {
      expect(asksForHuman(message)).toBe(false);
    },
  );
});

describe("greetings", () => {
  it("greets the visitor by name the first time", async () => {
    const result = await engine.run(input("How do I reset my password?", { visitor: { name: "Ada" } }));
    expect(result.reply).toBe(`Hi Ada, f${RESET_REPLY.slice(1)}`);
    const later = await engine.run(
      input("How do I reset my password?", {
        visitor: { name: "Ada" },
        history: [{ role: "agent", text: result.reply, toolCalls: result.toolCalls, answered: true }],
      }),
    );
    expect(later.reply).toBe(RESET_REPLY);
  });

  it("answers a greeting without searching", async () => {
    const named = await engine.run(input("Hello!", { visitor: { name: "Ada" } }));
    expect(named.reply).toBe("Hi Ada! How can I help you today?");
    expect(named.toolCalls).toEqual([]);
    const anonymous = await engine.run(input("hi"));
    expect(anonymous.reply).toBe("Hello! How can I help you today?");
  });

  it("writes the visitor's name as plain text: Markdown in it makes no image, link or block in the reply", async () => {
    const name = "![x](https://evil.example/p.png) [sign in](https://evil.example) www.evil.example\n# Heading";
    const result = await engine.run(input("How do I reset my password?", { visitor: { name } }));
    const html = renderMessageHtml(result.reply);
    expect(html).not.toContain("<img");
    expect(html).not.toContain('evil.example"');
    expect(html).not.toContain("<h1");
    expect(html).toContain("Hi ![x](https://evil.example/p.png) [sign in](https://evil.example) www.evil.example # Heading, f");
    const hello = await engine.run(input("Hello!", { visitor: { name } }));
    expect(renderMessageHtml(hello.reply).trim()).toBe(
      "<p>Hi ![x](https://evil.example/p.png) [sign in](https://evil.example) www.evil.example # Heading! How can I help you today?</p>",
    );
    // Greeted once: the next answer does not greet again.
    const later = await engine.run(
      input("How do I reset my password?", {
        visitor: { name },
        history: [{ role: "agent", text: result.reply, toolCalls: result.toolCalls, answered: true }],
      }),
    );
    expect(later.reply).toBe(RESET_REPLY);
  });

  it("keeps a capital I after the greeting", async () => {
    const result = await engine.run(input("Do you sell garden furniture?", { visitor: { name: "Ada" } }));
    expect(result.reply.startsWith("Hi Ada, I'm sorry, I don't know the answer to that")).toBe(true);
  });

  it("greets by name in a handoff too", async () => {
    const result = await engine.run(input("talk to a human", { visitor: { name: "Grace" } }));
    expect(result.reply.startsWith("Hi Grace, of course.")).toBe(true);
  });
});

describe("text helpers", () => {
  it("keeps the stems of the words that carry the question, in its language", () => {
    expect(termsOf("How do I reset my password?", "en")).toEqual(["reset", "password"]);
    expect(termsOf("Can't I get my money back, please?", "en")).toEqual(["monei", "back"]); // Snowball's stem
    expect(termsOf("Où est ma facture ?", "fr")).toEqual(["factur"]);
    expect(termsOf("how do I?", "en")).toEqual([]);
  });

  it("quotes a section in whole sentences, a long one from the sentences about the question", () => {
    const markdown = [
      "Intro about the product. It is great.",
      "",
      "## Reset your password",
      "",
      "1. Open the **sign-in** page.",
      "2. Choose [Forgot password?](https://x.example)",
      "",
      "| a | b |",
      "|---|---|",
      "| c | d |",
    ].join("\n");
    const [, reset] = sectionsOf(markdown);
    // The steps stay numbered, the table's row is an item of its own list.
    expect(quoteSection(reset!, new Set(["password"]), "en")).toEqual({
      markdown: "1. Open the sign-in page.\n2. Choose Forgot password?\n\n- c: d.",
      length: "Open the sign-in page. Choose Forgot password? c: d.".length,
    });
    const long = sectionsOf(
      "## Refunds\n\nPlans renew each month. Cancel at any time. Charged by mistake? We refund the wrong charge.",
    )[0]!;
    expect(quoteSection(long, new Set(["refund", "charg"]), "en", 60).markdown).toBe("Charged by mistake? We refund the wrong charge.");
  });

  it("lays a quote out as the article did: paragraphs, numbered and bulleted lists, a table's rows", () => {
    const markdown = [
      "## Export your data",
      "",
      "You can export everything. It takes a few minutes.",
      "",
      "1. Open **Settings**",
      "2. Choose *Export*.",
      "3. Pick a format:",
      "   - CSV",
      "   - JSON",
      "4. Select [Start export](https://x.example/export)",
      "5. Wait for the email",
      "",
      "What the export holds:",
      "",
      "* Your projects",
      "* Your invoices",
      "",
      "| Format | Size |",
      "|---|---|",
      "| CSV | small |",
    ].join("\n");
    const [section] = sectionsOf(markdown);
    // The sentences (all that search reads) are as before: each item one sentence, a stop added.
    expect(section!.sentences).toEqual([
      "You can export everything.",
      "It takes a few minutes.",
      "Open Settings.",
      "Choose Export.",
      "Pick a format:",
      "Select Start export.",
      "Wait for the email.",
      "What the export holds:",
      "Your projects.",
      "Your invoices.",
      "CSV: small.",
    ]);
    expect(quoteSection(section!, new Set(["export"]), "en").markdown).toBe(
      [
        "You can export everything. It takes a few minutes.",
        "",
        // The article's own words: no stop where it wrote none; a nested list is left to the article.
        "1. Open Settings",
        "2. Choose Export.",
        "3. Pick a format:",
        "4. Select Start export",
        "5. Wait for the email",
        "",
        "What the export holds:",
        "",
        "- Your projects",
        "- Your invoices",
        "",
        "- CSV: small.",
      ].join("\n"),
    );
    // A quote that starts at the third step keeps its number (Markdown starts the list at 3).
    expect(quoteSection(section!, new Set(["format"]), "en", 40).markdown).toBe("3. Pick a format:\n4. Select Start export");
  });

  it("writes the article's words so that Markdown reads them as written, never as markup or HTML", () => {
    const markdown = [
      "## Odd text",
      "",
      "1986\\. The year it began.",
      "",
      "Type \\<img src=x onerror=alert(1)\\> or `<script>alert(1)</script>` in the box, then 5 \\* 3 and \\[x\\](javascript:alert(1)).",
      "",
      "<script>alert('raw')</script>",
      "",
      "- \\# not a heading",
    ].join("\n");
    const [section] = sectionsOf(markdown);
    expect(quoteSection(section!, new Set(["box"]), "en").markdown).toBe(
      [
        "1986\\. The year it began.",
        "",
        "Type \\<img src=x onerror=alert(1)> or \\<script>alert(1)\\</script> in the box, then 5 \\* 3 and \\[x\\](javascript:alert(1)).",
        "",
        "- \\# not a heading",
      ].join("\n"),
    );
  });
});
