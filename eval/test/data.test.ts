// The evaluation set is consistent: in every corpus, every label points at a real article,
// section and excerpt, and the set keeps its promised size, mix, split and recorded source.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  ANSWERABLE_TYPES,
  isAnswerable,
  LANGUAGES,
  loadArticles,
  loadCollections,
  loadQuestions,
  sectionsOf,
  UNANSWERABLE_TYPES,
} from "@parley/testing/eval-corpus";
import { describe, expect, it } from "vitest";
import { type CorpusFolder, kestrel, listCorpora } from "../src/data.ts";
import { saysDontKnow } from "../src/metrics.ts";
import { containsTokens, tokens } from "../src/text.ts";

function load(folder: CorpusFolder) {
  const articles = loadArticles(folder.corpusDir);
  return {
    collections: loadCollections(folder.corpusDir),
    articles,
    byId: new Map(articles.map((article) => [article.id, article])),
    questions: loadQuestions(folder.questionsDir),
  };
}

function words(markdown: string): number {
  return tokens(markdown).length;
}

const corpora = listCorpora();

it("has Kestrel and at least two corpora of real products' documentation", () => {
  expect(corpora.map((corpus) => corpus.name)).toContain("kestrel");
  expect(corpora.length).toBeGreaterThanOrEqual(3);
});

describe.each(corpora)("the $name corpus", (folder) => {
  const { collections, articles, byId, questions } = load(folder);

  it("has at least 100 articles with unique ids, in known collections", () => {
    expect(articles.length).toBeGreaterThanOrEqual(100);
    expect(byId.size).toBe(articles.length);
    expect(new Set(articles.map((article) => article.collection))).toEqual(new Set(collections.map((collection) => collection.id)));
  });

  it("records where its articles come from and under which licence", () => {
    if (folder.name === "kestrel") return; // written for this set
    const sourcePath = path.join(folder.corpusDir, "..", "SOURCE.md");
    expect(existsSync(sourcePath)).toBe(true);
    expect(readFileSync(sourcePath, "utf8")).toMatch(/licen[cs]e/i);
  });

  it("never reads as an engine saying it does not know (so a quoted passage is not an abstention)", () => {
    const flagged = articles.flatMap((article) =>
      sectionsOf(article.content)
        .filter((section) => saysDontKnow(section.text))
        .map((section) => `${article.id} / ${section.heading}`),
    );
    expect(flagged).toEqual([]);
  });

  it("has questions with unique ids and texts, known languages and types matching whether they are answerable", () => {
    expect(new Set(questions.map((question) => question.id)).size).toBe(questions.length);
    expect(new Set(questions.map((question) => [question.question, ...(question.previous ?? [])].join("\n"))).size).toBe(questions.length);
    for (const question of questions) {
      expect(LANGUAGES, question.id).toContain(question.language);
      const types: readonly string[] = isAnswerable(question) ? ANSWERABLE_TYPES : UNANSWERABLE_TYPES;
      expect(types, question.id).toContain(question.type);
      expect(question.previous === undefined || question.previous.length > 0, question.id).toBe(true);
      expect(question.type === "follow-up" ? question.previous?.length : 1, question.id).toBeGreaterThan(0);
    }
  });

  it("labels real articles, sections and verbatim excerpts, each article once", () => {
    const problems: string[] = [];
    for (const question of questions) {
      const ids = question.answers.map((answer) => answer.article);
      if (new Set(ids).size !== ids.length) problems.push(`${question.id}: an article twice`);
      for (const answer of question.answers) {
        const article = byId.get(answer.article);
        if (!article) {
          problems.push(`${question.id}: no article ${answer.article}`);
          continue;
        }
        const sections = sectionsOf(article.content);
        // The introduction (before the first heading) is named by the article's title.
        const section =
          sections.find((candidate) => candidate.heading === answer.heading) ??
          (answer.heading === article.title ? sections.find((candidate) => candidate.heading === "") : undefined);
        const excerpt = tokens(answer.excerpt);
        if (!section) problems.push(`${question.id}: no section "${answer.heading}" in ${answer.article}`);
        else if (excerpt.length < 4) problems.push(`${question.id}: excerpt under 4 words`);
        else if (!containsTokens(tokens(section.text), excerpt))
          problems.push(`${question.id}: excerpt not in ${answer.article} / ${answer.heading}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has at least 80 answerable and 20 unanswerable questions, several of each kind", () => {
    const answerable = questions.filter(isAnswerable);
    expect(answerable.length).toBeGreaterThanOrEqual(80);
    expect(questions.length - answerable.length).toBeGreaterThanOrEqual(20);
    for (const type of ["paraphrase", "keyword", "typo", "long", "short", "near-topic"]) {
      expect(questions.filter((question) => question.type === type).length, type).toBeGreaterThanOrEqual(5);
    }
  });

  it("is split about 2/3 dev and 1/3 test", () => {
    const test = questions.filter((question) => question.split === "test").length;
    expect(test / questions.length).toBeGreaterThan(0.28);
    expect(test / questions.length).toBeLessThan(0.38);
  });
});

describe("the Kestrel corpus, written for this set", () => {
  const { articles, byId, questions } = load(kestrel);

  it("has at least 150 articles of realistic length, each with several sections", () => {
    expect(articles.length).toBeGreaterThanOrEqual(150);
    const problems = articles.flatMap((article) => {
      const count = words(article.content);
      const headings = sectionsOf(article.content).filter((section) => section.heading !== "").length;
      return count < 150 || count > 800 || headings < 2 ? [`${article.id}: ${count} words, ${headings} sections`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("is about 15% in Spanish, French, German and Portuguese, and translations point at English articles", () => {
    const other = articles.filter((article) => article.language !== "en");
    expect(other.length / articles.length).toBeGreaterThanOrEqual(0.15);
    for (const language of LANGUAGES) expect(articles.some((article) => article.language === language)).toBe(true);
    for (const article of other.filter((article) => article.translationOf)) {
      expect(byId.get(article.translationOf!)?.language, article.id).toBe("en");
    }
  });

  it("has at least 300 answerable and 60 unanswerable questions, of every type, 15% or more not in English", () => {
    const answerable = questions.filter(isAnswerable);
    expect(answerable.length).toBeGreaterThanOrEqual(300);
    expect(questions.length - answerable.length).toBeGreaterThanOrEqual(60);
    for (const type of [...ANSWERABLE_TYPES, ...UNANSWERABLE_TYPES]) {
      expect(questions.filter((question) => question.type === type).length, type).toBeGreaterThanOrEqual(10);
    }
    for (const language of LANGUAGES)
      expect(questions.some((question) => question.language === language && !isAnswerable(question))).toBe(true);
    expect(answerable.filter((question) => question.language !== "en").length / answerable.length).toBeGreaterThanOrEqual(0.15);
    // Questions asked in another language about a topic only an English article covers.
    expect(
      answerable.filter(
        (question) => question.language !== "en" && question.answers.every((answer) => byId.get(answer.article)?.language === "en"),
      ).length,
    ).toBeGreaterThanOrEqual(10);
  });
});
