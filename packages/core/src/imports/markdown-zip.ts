// A .zip of Markdown files, read as a stream: the upload is fed to the unzipper a slice at a time
// and each file is handed on as soon as it is complete, so memory holds one file, not the archive
// unpacked. Front matter gives title, slug and published; the file name gives the slug otherwise,
// and a leading `# heading` the title.
import path from "node:path";
import { Unzip, type UnzipFile, UnzipInflate } from "fflate";
import frontMatter from "front-matter";
import { slugFromTitle } from "../article-slugs.ts";
import { ARTICLE_CONTENT_MAX_CHARS, IMPORT_ZIP_MAX_FILES } from "../limits.ts";
import type { ImportItem } from "./items.ts";

const SLICE_BYTES = 64 * 1024;
/** A Markdown file may hold this much (UTF-8 bytes) before it is refused unread. */
const FILE_MAX_BYTES = ARTICLE_CONTENT_MAX_CHARS * 4 + 64 * 1024;
const MARKDOWN = /\.(md|markdown|mdx?)$/i;

/** The zip's items, in archive order; an unreadable archive throws (the job fails with its reason). */
export async function* markdownZipItems(zip: Uint8Array): AsyncGenerator<ImportItem> {
  const ready: ImportItem[] = [];
  let files = 0;
  let tooMany = false;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/")) return;
    if (++files > IMPORT_ZIP_MAX_FILES) {
      tooMany = true;
      return;
    }
    if (isHidden(file.name)) return;
    if (!MARKDOWN.test(file.name)) {
      ready.push({ name: file.name, skip: "Not a Markdown file (.md)" });
      return;
    }
    readFile(file, (item) => ready.push(item));
  });
  unzip.register(UnzipInflate);
  for (let offset = 0; offset < zip.length; offset += SLICE_BYTES) {
    const end = Math.min(offset + SLICE_BYTES, zip.length);
    unzip.push(zip.subarray(offset, end), end === zip.length);
    while (ready.length > 0) yield ready.shift() as ImportItem;
    if (tooMany) break;
  }
  while (ready.length > 0) yield ready.shift() as ImportItem;
  if (files === 0 && !tooMany) throw new Error("The file is not a .zip archive, or it holds no files");
  if (tooMany)
    yield {
      name: "(the rest of the archive)",
      failure: `The archive holds more than ${IMPORT_ZIP_MAX_FILES.toLocaleString("en-US")} files; the rest were not imported`,
    };
}

/** macOS resource forks and dot files are not articles and not worth a report line. */
function isHidden(name: string): boolean {
  return name.startsWith("__MACOSX/") || name.split("/").some((part) => part.startsWith("."));
}

function readFile(file: UnzipFile, done: (item: ImportItem) => void): void {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let refused = false;
  file.ondata = (error, chunk, final) => {
    if (refused) return;
    if (error) {
      refused = true;
      done({ name: file.name, failure: "The file is damaged in the archive" });
      return;
    }
    size += chunk.length;
    if (size > FILE_MAX_BYTES) {
      refused = true;
      file.terminate();
      done({
        name: file.name,
        failure: `The file is larger than an article may be (${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")} characters)`,
      });
      return;
    }
    chunks.push(chunk);
    if (final) done(parseMarkdownFile(file.name, Buffer.concat(chunks)));
  };
  file.start();
}

/** One Markdown file: front matter, then title, slug, published and the body. */
export function parseMarkdownFile(name: string, bytes: Uint8Array): ImportItem {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return { name, failure: "The file is not UTF-8 text" };
  }
  let attributes: Record<string, unknown>;
  let body: string;
  try {
    const parsed = frontMatter<Record<string, unknown>>(text);
    attributes = parsed.attributes && typeof parsed.attributes === "object" ? parsed.attributes : {};
    body = parsed.body;
  } catch {
    return { name, failure: "The front matter is not valid YAML" };
  }
  let title = typeof attributes.title === "string" ? attributes.title.trim() : "";
  if (!title) {
    const heading = /^\s*#\s+(.+?)\s*#*\s*(\r?\n|$)/.exec(body);
    if (heading) {
      title = heading[1] ?? "";
      body = body.slice(heading[0].length);
    }
  }
  const slug =
    typeof attributes.slug === "string" ? attributes.slug.trim() : slugFromTitle(path.posix.basename(name).replace(MARKDOWN, ""));
  const published = typeof attributes.published === "boolean" ? attributes.published : undefined;
  if (attributes.published !== undefined && published === undefined)
    return { name, failure: "`published` in the front matter must be true or false" };
  return { name, title, slug, content: body.trim(), published };
}
