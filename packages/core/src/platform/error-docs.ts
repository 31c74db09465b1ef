// Where an error is documented: its stable anchor on the /docs page. The OpenAPI document lists the
// meanings under each response; the /docs page's Errors section shows the whole table (error-table.ts);
// every REST error response links its entry in a `Link: <...>; rel="help"` header (the spec's error body
// has no room for a link).

/** The path of the API reference page, where the Errors section lives. */
export const API_DOCS_PATH = "/docs";

/** What an error means for an integrator (`meaning`) and what to do about it (`action`). */
export interface ErrorDoc {
  meaning: string;
  action: string;
}

/** The stable anchor of an error on the /docs page: `errors-` and the code in kebab case (`errors-rate-limited`). */
export function errorDocsAnchor(code: string): string {
  return `errors-${code.toLowerCase().replaceAll("_", "-")}`;
}

/** Where an error is documented, relative to the deployment (`/docs#errors-rate-limited`). */
export function errorDocsUrl(code: string): string {
  return `${API_DOCS_PATH}#${errorDocsAnchor(code)}`;
}

/**
 * The `Link` header value (RFC 8288) every REST error response carries: its documentation, as a
 * reference relative to the request's own origin, where the /docs page is served.
 */
export function errorDocsLink(code: string): string {
  return `<${errorDocsUrl(code)}>; rel="help"`;
}
