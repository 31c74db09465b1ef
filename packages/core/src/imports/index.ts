// Bulk article imports into a source: a .zip of Markdown files, a list of URLs or a sitemap, a
// Zendesk or Intercom export. Started from the panel, run by the background worker.
export { fetchGuardedPage } from "./fetch-page.ts";
export { helpDeskExportItems } from "./help-desk-exports.ts";
export { htmlToMarkdown, pageToArticle } from "./html.ts";
export { type ImportItem, importItem, type ReportEntry } from "./items.ts";
export {
  getImport,
  IMPORT_KINDS,
  type ImportKindName,
  importIdInput,
  listImports,
  listImportsInput,
  parseStartImportQuery,
  START_IMPORT_OPERATION,
  startImport,
  startImportQuery,
} from "./jobs.ts";
export { markdownZipItems, parseMarkdownFile } from "./markdown-zip.ts";
export { ImportRunner, type ImportRunnerOptions } from "./runner.ts";
export { IMPORTS_INTERVAL_MS, importsTask } from "./task.ts";
export { parseUrlList, sitemapLocations, urlListItems } from "./url-list.ts";
