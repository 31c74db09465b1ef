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
} from "@parley/core/admin";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const articlesRouter = createTRPCRouter({
  list: protectedProcedure.input(listArticlesInput).query(({ ctx, input }) => listArticles(ctx.app.db, ctx.session.workspaceId, input)),
  get: protectedProcedure.input(articleIdInput).query(({ ctx, input }) => getArticle(ctx.app.db, ctx.session.workspaceId, input.id)),
  create: protectedProcedure
    .input(createArticleInput)
    .mutation(({ ctx, input }) => createArticle(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
  update: protectedProcedure
    .input(updateArticleInput)
    .mutation(({ ctx, input }) => updateArticle(ctx.app.db, ctx.session.workspaceId, input)),
  setPublished: protectedProcedure
    .input(setArticlePublishedInput)
    .mutation(({ ctx, input }) => setArticlePublished(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
  // A mutation: the draft travels in the request body (a query would put it in the URL).
  preview: protectedProcedure.input(previewArticleInput).mutation(({ input }) => previewArticle(input)),
  setActive: protectedProcedure
    .input(setArticleActiveInput)
    .mutation(({ ctx, input }) => setArticleActive(ctx.app.db, ctx.session.workspaceId, input)),
});
