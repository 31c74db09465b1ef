// The evaluation corpus (`npm run eval`'s, which the bench's eval scenario uses too):
// collections.json and one Markdown file per article under <collection>/<id>.md, with a small
// front matter (id, title, language, and translation_of for a translation of an English article).
// The files are eval/corpora/<name>/corpus's; the callers name the folder.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const LANGUAGES = ["en", "es", "fr", "de", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Collection {
  id: string;
  name: string;
}

export interface Article {
  id: string;
  collection: string;
  title: string;
  language: Language;
  translationOf?: string;
  /** Markdown, without the front matter. */
  content: string;
}

export interface Section {
  /** The heading's text as written (without the #s); "" for the text before the first heading. */
  heading: string;
  /** The Markdown from the heading to the next heading of any level. */
  text: string;
}

/** `dir`: the corpus folder (eval/corpora/<name>/corpus). */
export function loadCollections(dir: string): Collection[] {
  return JSON.parse(readFileSync(path.join(dir, "collections.json"), "utf8")) as Collection[];
}

/** `dir`: the corpus folder (eval/corpora/<name>/corpus). */
export function loadArticles(dir: string): Article[] {
  return loadCollections(dir).flatMap((collection) =>
    readdirSync(path.join(dir, collection.id))
      .filter((file) => file.endsWith(".md"))
      .sort()
      .map((file) => parseArticle(readFileSync(path.join(dir, collection.id, file), "utf8"), collection.id, file)),
  );
}

/** `key: value` lines between two `---` lines, then the Markdown. Values may be JSON-quoted. */
export function parseArticle(source: string, collection: string, file = "article"): Article {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: no front matter`);
  const fields = new Map<string, string>();
  for (const line of match[1]!.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`${file}: bad front matter line "${line}"`);
    const raw = line.slice(colon + 1).trim();
    fields.set(line.slice(0, colon).trim(), raw.startsWith('"') ? (JSON.parse(raw) as string) : raw);
  }
  const id = fields.get("id");
  const title = fields.get("title");
  const language = fields.get("language") as Language | undefined;
  if (!id || !title || !language || !LANGUAGES.includes(language)) throw new Error(`${file}: needs id, title and a known language`);
  return { id, collection, title, language, translationOf: fields.get("translation_of"), content: match[2]!.trim() };
}

/** The article cut at its headings (## or ###), in order. */
export function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: "", text: "" }];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = inCode ? null : /^#{2,3}\s+(.+?)\s*$/.exec(line);
    if (heading) sections.push({ heading: heading[1]!, text: "" });
    else sections[sections.length - 1]!.text += `${line}\n`;
  }
  return sections.filter((section) => section.heading !== "" || section.text.trim() !== "");
}
