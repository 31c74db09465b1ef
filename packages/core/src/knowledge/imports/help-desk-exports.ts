// Help desk exports (JSON) as import items. Zendesk Help Center: the Articles API's list,
// `{ "articles": [{ id, title, body (HTML), html_url, draft, ... }] }`. Intercom: the Articles
// API's list, `{ "type": "list", "data": [{ id, type: "article", title, body (HTML), url, state }] }`.
import { z } from "zod";
import { htmlToMarkdown } from "./html.ts";
import type { ImportItem } from "./items.ts";

const id = z.union([z.string(), z.number()]).transform(String);

const zendeskExport = z.object({
  articles: z.array(
    z.looseObject({
      id,
      title: z.string().nullish(),
      body: z.string().nullish(),
      html_url: z.string().nullish(),
      draft: z.boolean().nullish(),
    }),
  ),
});

const intercomExport = z.object({
  data: z.array(
    z.looseObject({
      id,
      title: z.string().nullish(),
      body: z.string().nullish(),
      url: z.string().nullish(),
      state: z.string().nullish(),
    }),
  ),
});

export type HelpDeskKind = "zendesk" | "intercom";

/** The export's items; a file that is not such an export throws with what was expected. */
export function* helpDeskExportItems(kind: HelpDeskKind, bytes: Uint8Array): Generator<ImportItem> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Error("The file is not JSON");
  }
  if (kind === "zendesk") {
    const parsed = zendeskExport.safeParse(json);
    if (!parsed.success) throw new Error('The file is not a Zendesk Help Center articles export (expected {"articles": [...]})');
    for (const article of parsed.data.articles)
      yield {
        name: `Zendesk article ${article.id}`,
        title: article.title ?? "",
        content: htmlToMarkdown(article.body ?? ""),
        published: article.draft == null ? undefined : !article.draft,
        sourceUrl: article.html_url ?? `zendesk:${article.id}`,
      };
    return;
  }
  const parsed = intercomExport.safeParse(json);
  if (!parsed.success) throw new Error('The file is not an Intercom articles export (expected {"type": "list", "data": [...]})');
  for (const article of parsed.data.data)
    yield {
      name: `Intercom article ${article.id}`,
      title: article.title ?? "",
      content: htmlToMarkdown(article.body ?? ""),
      published: article.state == null ? undefined : article.state === "published",
      sourceUrl: article.url ?? `intercom:${article.id}`,
    };
}
