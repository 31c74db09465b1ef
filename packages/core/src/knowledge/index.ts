// Knowledge: sources, articles (history, schedule, translations), languages, search, semantic
// retrieval, imports, gaps.

export { articleDetailOutput, articleListOutput, articleOperations } from "./articles/article-operations.ts";
export {
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
} from "./articles/articles.ts";
export {
  articleRevisionDiff,
  articleRevisionInput,
  articleRevisionsInput,
  listArticleRevisions,
  restoreArticleRevision,
} from "./articles/history.ts";
export { markdownToPlainText } from "./articles/plain-text.ts";
export { ScheduledPublisher, scheduleArticle, scheduleArticleInput } from "./articles/schedule.ts";
export { scheduledPublicationsTask } from "./articles/schedule-task.ts";
export { slugFromTitle } from "./articles/slugs.ts";
export { listTranslationOriginals, translationOriginalsInput } from "./articles/translations.ts";
export { deleteArticle, deleteByIdInput, deleteSource } from "./deletion.ts";
export { KNOWLEDGE_ERRORS } from "./errors.ts";
export { gapKey } from "./gaps/gap-rows.ts";
export { dismissKnowledgeGap, knowledgeGapCounts, listKnowledgeGaps, listKnowledgeGapsInput } from "./gaps/gaps-page.ts";
export { importOperations } from "./imports/import-operations.ts";
export { getImport, importIdInput, listImports, listImportsInput, parseStartImportQuery, startImport } from "./imports/jobs.ts";
export { ImportRunner } from "./imports/runner.ts";
export { importsTask } from "./imports/task.ts";
export { detectMissingLanguages, LanguageDetectionTask } from "./languages/detected.ts";
export { languageDetectionTask } from "./languages/detection-task.ts";
export { warmAgentIndexes } from "./search/agent-index.ts";
export { agentSearchOperations } from "./search/agent-search-operations.ts";
export { getAgentKnowledgeSearch } from "./search/agent-status.ts";
export { type ArticleHit, listVisibleArticleDates } from "./search/database-search.ts";
export {
  type HelpSearch,
  type HelpSearchOptions,
  rankHelpArticleIds,
  searchHelpArticles,
  searchHelpCentre,
} from "./search/help-search.ts";
export { fuse, type RankedPassage } from "./search/rank.ts";
export { EmbeddingIndexer } from "./semantic/indexer.ts";
export { createSemanticSearch, type SemanticSearch } from "./semantic/nearest.ts";
export { PGVECTOR_MISSING } from "./semantic/passage-search.ts";
export { pgvectorUsable } from "./semantic/pgvector.ts";
export { type EmbeddingsConfig, embeddingsConfigFrom, embeddingsSettingsSchema } from "./semantic/settings.ts";
export { embeddingsTask } from "./semantic/task.ts";
export { deletedSourceOutput, sourceListOutput, sourceOperations, sourceOutput } from "./source-operations.ts";
export {
  createSource,
  createSourceInput,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "./sources.ts";
export { findHelpAgent } from "./visibility.ts";
