import {
  articleIdInput,
  articleRevisionDiff,
  articleRevisionInput,
  articleRevisionsInput,
  createArticle,
  createArticleInput,
  deleteArticle,
  deleteByIdInput,
  getArticle,
  listArticleRevisions,
  listArticles,
  listArticlesInput,
  listKnowledgeGaps,
  listKnowledgeGapsInput,
  listTranslationOriginals,
  previewArticle,
  previewArticleInput,
  restoreArticleRevision,
  scheduleArticle,
  scheduleArticleInput,
  setArticleActive,
  setArticleActiveInput,
  setArticlePublished,
  setArticlePublishedInput,
  translationOriginalsInput,
  updateArticle,
  updateArticleInput,
} from "@parley/core/knowledge";
import {
  articleDetailOutput,
  articleListOutput,
  articlePreviewOutput,
  articleRestoredOutput,
  articleRevisionDiffOutput,
  articleRevisionsOutput,
  articleScheduleOutput,
  knowledgeGapsOutput,
  okOutput,
  translationOriginalsOutput,
} from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const articlesRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listArticlesInput)
    .output(articleListOutput)
    .query(({ ctx, input }) => listArticles(ctx.app.db, ctx.session.workspaceId, input)),
  get: protectedProcedure
    .input(articleIdInput)
    .output(articleDetailOutput)
    .query(({ ctx, input }) => getArticle(ctx.app.db, ctx.session.workspaceId, input.id)),
  // The articles the editor's "Translation of" offers.
  translationOriginals: protectedProcedure
    .input(translationOriginalsInput)
    .output(translationOriginalsOutput)
    .query(({ ctx, input }) => listTranslationOriginals(ctx.app.db, ctx.session.workspaceId, input)),
  create: protectedProcedure
    .input(createArticleInput)
    .output(articleDetailOutput)
    .mutation(({ ctx, input }) => createArticle(ctx.app.db, ctx.session, input, ctx.app.now())),
  update: protectedProcedure
    .input(updateArticleInput)
    .output(articleDetailOutput)
    .mutation(({ ctx, input }) => updateArticle(ctx.app.db, ctx.session, input, ctx.app.now())),
  setPublished: protectedProcedure
    .input(setArticlePublishedInput)
    .output(articleDetailOutput)
    .mutation(({ ctx, input }) => setArticlePublished(ctx.app.db, ctx.session, input, ctx.app.now())),
  // A mutation: the draft travels in the request body (a query would put it in the URL).
  preview: protectedProcedure
    .input(previewArticleInput)
    .output(articlePreviewOutput)
    .mutation(({ input }) => previewArticle(input)),
  setActive: protectedProcedure
    .input(setArticleActiveInput)
    .output(articleDetailOutput)
    .mutation(({ ctx, input }) => setArticleActive(ctx.app.db, ctx.session, input)),
  /** Deletes the article (its passages and vectors go with it; its help page answers 404). */
  delete: protectedProcedure
    .input(deleteByIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => deleteArticle(ctx.app.db, ctx.session, input.id, ctx.app.now())),
  revisions: protectedProcedure
    .input(articleRevisionsInput)
    .output(articleRevisionsOutput)
    .query(({ ctx, input }) => listArticleRevisions(ctx.app.db, ctx.session.workspaceId, input)),
  revisionDiff: protectedProcedure
    .input(articleRevisionInput)
    .output(articleRevisionDiffOutput)
    .query(({ ctx, input }) => articleRevisionDiff(ctx.app.db, ctx.session.workspaceId, input)),
  restoreRevision: protectedProcedure
    .input(articleRevisionInput)
    .output(articleRestoredOutput)
    .mutation(({ ctx, input }) => restoreArticleRevision(ctx.app.db, ctx.session, input, ctx.app.now())),
  schedule: protectedProcedure
    .input(scheduleArticleInput)
    .output(articleScheduleOutput)
    .mutation(({ ctx, input }) => scheduleArticle(ctx.app.db, ctx.session, input, ctx.app.now())),
  // The questions nobody answered (the gaps page), grouped by wording.
  gaps: protectedProcedure
    .input(listKnowledgeGapsInput)
    .output(knowledgeGapsOutput)
    .query(({ ctx, input }) => listKnowledgeGaps(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
});
