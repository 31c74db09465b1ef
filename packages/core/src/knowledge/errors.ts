// The errors knowledge/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS, ARTICLES_PER_SOURCE_MAX } from "../platform/limits.ts";

export const KNOWLEDGE_ERRORS = defineErrors({
  ARTICLE_NOT_FOUND: {
    status: 404,
    message: "Article not found",
    trpc: "NOT_FOUND",
    meaning: "The article is not one of your workspace's, or was deleted.",
    action: "Reload the list of articles and pick one that exists.",
  },
  TRANSLATION_ORIGINAL_NOT_FOUND: {
    status: 404,
    message: "The original article was not found in this workspace",
    trpc: "NOT_FOUND",
    meaning: "The article chosen as the original of a translation is not one of your workspace's (or it was deleted).",
    action: "Reload the article editor and choose an original that exists.",
  },
  ARTICLE_SLUG_TAKEN: {
    status: 409,
    message: "Another article of this source already uses this slug",
    trpc: "CONFLICT",
    meaning: "Another article of the same source already has this slug (slugs are unique per source).",
    action: "Choose another slug, or change the other article's first.",
  },
  ARTICLES_PER_SOURCE_LIMIT: {
    status: 409,
    message: `This source holds its maximum of ${ARTICLES_PER_SOURCE_MAX.toLocaleString("en-US")} articles: delete some, or put new ones in another source`,
    trpc: "CONFLICT",
    meaning: `The source already holds ${ARTICLES_PER_SOURCE_MAX.toLocaleString("en-US")} articles (drafts and archived ones count), so it takes no new or moved-in article.`,
    action: "Delete articles the source no longer needs, or create the article in another source (an agent may use several).",
  },
  ARTICLE_REVISION_TOO_LONG: {
    status: 409,
    message: `This version is longer than an article may be (a title of ${ARTICLE_TITLE_MAX_CHARS} characters, content of ${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")}), so it cannot be restored`,
    trpc: "CONFLICT",
    meaning: "The version chosen to restore has a longer title or content than an article may have now.",
    action: "Copy the part you need from the version into the article instead, within the limits.",
  },
  TRANSLATION_OF_ITSELF: {
    status: 400,
    message: "An article cannot be a translation of itself",
    trpc: "BAD_REQUEST",
    meaning: "An article was linked as a translation of itself.",
    action: "Choose another article as the original, or none.",
  },
  TRANSLATION_OF_TRANSLATION: {
    status: 409,
    message: "That article is itself a translation: choose the original it translates",
    trpc: "CONFLICT",
    meaning: "The article chosen as the original is itself a translation (translations link their original only).",
    action: "Choose the article that one translates.",
  },
  TRANSLATION_HAS_TRANSLATIONS: {
    status: 409,
    message: "This article is the original of other translations, so it cannot be a translation itself",
    trpc: "CONFLICT",
    meaning: "The article has translations linked to it, so it is an original and cannot be a translation itself.",
    action: "Link its translations to the other original first, or keep this article an original.",
  },
  IMPORT_JOB_NOT_FOUND: {
    status: 404,
    message: "Import not found",
    trpc: "NOT_FOUND",
    meaning: "The import is not one of your workspace's.",
    action: "Reload the source's imports and pick one that exists.",
  },
});
