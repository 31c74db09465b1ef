// The control panel's operations on articles and the knowledge gaps page (the `articles` router of
// packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { count, id, moment, okOutput } from "../../platform/panel-outputs.ts";
import { deleteArticle, deleteByIdInput } from "../deletion.ts";
import { dismissKnowledgeGap, dismissKnowledgeGapInput, listKnowledgeGaps, listKnowledgeGapsInput } from "../gaps/gaps-page.ts";
import {
  articleIdInput,
  createArticle,
  createArticleInput,
  getArticle,
  listArticles,
  listArticlesInput,
  previewArticle,
  previewArticleInput,
  setArticleActive,
  setArticleActiveInput,
  setArticlePublished,
  setArticlePublishedInput,
  updateArticle,
  updateArticleInput,
} from "./articles.ts";
import {
  articleRevisionDiff,
  articleRevisionInput,
  articleRevisionsInput,
  listArticleRevisions,
  restoreArticleRevision,
} from "./history.ts";
import { scheduleArticle, scheduleArticleInput } from "./schedule.ts";
import { listTranslationOriginals, translationOriginalsInput } from "./translations.ts";

/** An article of a translation group, as the editor names it. */
const translatedArticle = z.object({ id, title: z.string(), language: z.string().nullable() });

export const articleSummaryOutput = z.object({
  id,
  sourceId: id,
  title: z.string(),
  slug: z.string(),
  /** Null: detected from the text. */
  language: z.string().nullable(),
  /** The original this article translates; null: an original. */
  translationOfId: id.nullable(),
  published: z.boolean(),
  active: z.boolean(),
  updatedAt: moment,
  sourceName: z.string(),
  /** An inactive source hides all its articles. */
  sourceActive: z.boolean(),
  /** Help-centre views (one per visitor and 30 minutes; crawlers not counted), stored every few seconds. */
  viewCount: count,
});

/** The list adds visitors' "Was this helpful?" score: helpful votes of all votes. */
export const articleListOutput = z.array(articleSummaryOutput.extend({ helpful: count, votes: count }));

export const articleDetailOutput = z.object({
  ...articleSummaryOutput.shape,
  content: z.string(),
  /** The language detected from the text when it was last saved; null: not detected yet. */
  detectedLanguage: z.string().nullable(),
  createdAt: moment,
  publishedAt: moment.nullable(),
  /** A scheduled publication not yet made. */
  publishAt: moment.nullable(),
  agentIds: z.array(id),
  translationOf: translatedArticle.nullable(),
  /** The articles that translate this one (an original's). */
  translations: z.array(translatedArticle),
});

/** The editor's "Translation of" choices: the workspace's originals. */
export const translationOriginalsOutput = z.array(translatedArticle.extend({ sourceName: z.string() }));

export const articleRevisionsOutput = z.array(
  z.object({ id, title: z.string(), published: z.boolean(), createdAt: moment, authorName: z.string().nullable() }),
);

const diffParts = z.array(z.object({ change: z.enum(["added", "removed", "same"]), text: z.string() }));

export const articleRevisionDiffOutput = z.object({
  revisionId: id,
  articleId: id,
  createdAt: moment,
  title: diffParts,
  content: diffParts,
  differs: z.boolean(),
});

export const articleRestoredOutput = z.object({ articleId: id });

export const articleScheduleOutput = z.object({ publishAt: moment.nullable() });

export const knowledgeGapsOutput = z.object({
  groups: z.array(
    z.object({
      wording: z.string(),
      question: z.string(),
      variants: z.array(z.string()),
      last7Days: count,
      last30Days: count,
      lastAskedAt: moment,
      kinds: z.object({ unanswered: count, not_helpful: count, no_search_result: count }),
    }),
  ),
  /** Every open question of the period (the home page's figure is the same query). */
  counts: z.object({ last7Days: count, last30Days: count }),
});

export const gapDismissedOutput = z.object({ dismissed: count });

export const articlePreviewOutput = z.object({ html: z.string() });

const panel = panelOperationsOver<PlatformContext>();

export const articleOperations = {
  list: panel.query({
    permission: "knowledge.read",
    input: listArticlesInput,
    output: articleListOutput,
    run: ({ app, scope }, input) => listArticles(app.db, scope.workspaceId, input),
  }),
  get: panel.query({
    permission: "knowledge.read",
    input: articleIdInput,
    output: articleDetailOutput,
    run: ({ app, scope }, input) => getArticle(app.db, scope.workspaceId, input.id),
  }),
  // The articles the editor's "Translation of" offers.
  translationOriginals: panel.query({
    permission: "knowledge.read",
    input: translationOriginalsInput,
    output: translationOriginalsOutput,
    run: ({ app, scope }, input) => listTranslationOriginals(app.db, scope.workspaceId, input),
  }),
  create: panel.mutation({
    permission: "knowledge.write",
    input: createArticleInput,
    output: articleDetailOutput,
    run: ({ app, scope }, input) => createArticle(app.db, scope, input, app.now()),
  }),
  update: panel.mutation({
    permission: "knowledge.write",
    input: updateArticleInput,
    output: articleDetailOutput,
    run: ({ app, scope }, input) => updateArticle(app.db, scope, input, app.now()),
  }),
  setPublished: panel.mutation({
    permission: "knowledge.write",
    input: setArticlePublishedInput,
    output: articleDetailOutput,
    run: ({ app, scope }, input) => setArticlePublished(app.db, scope, input, app.now()),
  }),
  // A mutation: the draft travels in the request body (a query would put it in the URL).
  preview: panel.mutation({
    permission: "knowledge.read",
    input: previewArticleInput,
    output: articlePreviewOutput,
    run: (_call, input) => previewArticle(input),
  }),
  setActive: panel.mutation({
    permission: "knowledge.write",
    input: setArticleActiveInput,
    output: articleDetailOutput,
    run: ({ app, scope }, input) => setArticleActive(app.db, scope, input),
  }),
  /** Deletes the article (its passages and vectors go with it; its help page answers 404). */
  delete: panel.mutation({
    permission: "knowledge.write",
    input: deleteByIdInput,
    output: okOutput,
    run: ({ app, scope }, input) => deleteArticle(app.db, scope, input.id, app.now()),
  }),
  revisions: panel.query({
    permission: "knowledge.read",
    input: articleRevisionsInput,
    output: articleRevisionsOutput,
    run: ({ app, scope }, input) => listArticleRevisions(app.db, scope.workspaceId, input),
  }),
  revisionDiff: panel.query({
    permission: "knowledge.read",
    input: articleRevisionInput,
    output: articleRevisionDiffOutput,
    run: ({ app, scope }, input) => articleRevisionDiff(app.db, scope.workspaceId, input),
  }),
  restoreRevision: panel.mutation({
    permission: "knowledge.write",
    input: articleRevisionInput,
    output: articleRestoredOutput,
    run: ({ app, scope }, input) => restoreArticleRevision(app.db, scope, input, app.now()),
  }),
  schedule: panel.mutation({
    permission: "knowledge.write",
    input: scheduleArticleInput,
    output: articleScheduleOutput,
    run: ({ app, scope }, input) => scheduleArticle(app.db, scope, input, app.now()),
  }),
  // The questions nobody answered (the gaps page), near-duplicates grouped.
  gaps: panel.query({
    permission: "knowledge.read",
    input: listKnowledgeGapsInput,
    output: knowledgeGapsOutput,
    run: ({ app, scope }, input) => listKnowledgeGaps(app.db, scope.workspaceId, input, app.now()),
  }),
  /** Takes a group off the gaps page (and the home count); audited. */
  dismissGap: panel.mutation({
    permission: "knowledge.write",
    input: dismissKnowledgeGapInput,
    output: gapDismissedOutput,
    run: ({ app, scope }, input) => dismissKnowledgeGap(app.db, scope, input, app.now()),
  }),
};
