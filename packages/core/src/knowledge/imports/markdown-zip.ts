// A .zip of Markdown files, read as a stream: the upload is fed to the unzipper a slice at a time
// and each file is handed on as soon as it is complete, so memory holds one file, not the archive
// unpacked. Front matter gives title, slug and published; the file name gives the slug otherwise,
// and a leading `# heading` the title. Every file of the archive gets one report line (folders
// none), and a damaged or truncated archive says so instead of looking complete.
import path from "node:path";
import { Unzip, type UnzipFile, UnzipInflate, unzipSync } from "fflate";
import frontMatter from "front-matter";
import { ARTICLE_CONTENT_MAX_CHARS } from "../../platform/limits.ts";
import { slugFromTitle } from "../articles/slugs.ts";
import { IMPORT_ZIP_MAX_FILES } from "../limits.ts";
import type { ImportItem } from "./items.ts";

/**
 * Compressed bytes fed at a time. Text compresses well: 4 KB can unpack to about 600 KB (six long
 * articles), all held until handed on, so a larger slice would hold dozens of articles at once.
 */
const SLICE_BYTES = 4 * 1024;
/** A Markdown file may hold this much (UTF-8 bytes) before it is refused unread. */
const FILE_MAX_BYTES = ARTICLE_CONTENT_MAX_CHARS * 4 + 64 * 1024;
const MARKDOWN = /\.(md|markdown|mdx?)$/i;
/** Store and Deflate: the methods the unzipper reads (and nearly every zip tool writes). */
const READABLE_METHODS = new Set([0, 8]);
const METHOD_NAMES: Record<number, string> = {
  9: "Deflate64",
  12: "bzip2",
  14: "LZMA",
  93: "Zstandard",
  95: "XZ",
  98: "PPMd",
  99: "AES-encrypted",
};

const NOT_A_ZIP = "The file is not a .zip archive, or it holds no files";
const CUT_OFF = "The file is cut off: the archive is damaged or truncated";
const DAMAGED = "The archive is damaged or truncated: files after the last one listed may be missing; upload the whole .zip again";
const NOTHING_READ = "The archive is damaged or truncated: no file in it could be read";

/**
 * The zip's items, in archive order, then a line for a damaged archive. An archive of which
 * nothing could be read throws (the job fails with the reason, its report keeps the lines).
 */
export async function* markdownZipItems(zip: Uint8Array): AsyncGenerator<ImportItem> {
  const listed = directoryNames(zip);
  const ready: ImportItem[] = [];
  const reading = new Set<UnzipFile>();
  const seen: string[] = [];
  let tooMany = false;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/")) return;
    if (seen.length >= IMPORT_ZIP_MAX_FILES) {
      tooMany = true;
      return;
    }
    seen.push(file.name);
    const notRead = reasonNotRead(file);
    if (notRead) ready.push(notRead);
    else readFile(file, reading, (item) => ready.push(item));
  });
  unzip.register(UnzipInflate);
  let cut = false;
  for (let offset = 0; offset < zip.length && !tooMany && !cut; offset += SLICE_BYTES) {
    const end = Math.min(offset + SLICE_BYTES, zip.length);
    cut = !pushSlice(unzip, zip.subarray(offset, end), end === zip.length);
    while (ready.length > 0) yield ready.shift() as ImportItem;
  }
  const read = seen.length - reading.size;
  for (const file of reading) yield { name: file.name, failure: CUT_OFF };
  if (tooMany) {
    yield {
      name: "(the rest of the archive)",
      failure: `The archive holds more than ${IMPORT_ZIP_MAX_FILES.toLocaleString("en-US")} files; the rest were not imported`,
    };
    return;
  }
  const missing = listed ? notSeen(listed, seen) : [];
  for (const name of missing) yield { name, failure: "The archive is damaged: this file could not be found in it" };
  const damaged = cut || listed === null || reading.size > 0 || missing.length > 0;
  if (seen.length === 0 && (!damaged || !startsLikeZip(zip))) throw new Error(NOT_A_ZIP);
  if (!damaged) return;
  if (read === 0) throw new Error(NOTHING_READ);
  yield { name: "(the archive)", failure: DAMAGED };
}

/** A zip starts with a file's local header signature ("PK\x03\x04"). */
function startsLikeZip(zip: Uint8Array): boolean {
  return zip[0] === 0x50 && zip[1] === 0x4b && zip[2] === 0x03 && zip[3] === 0x04;
}

/** Feeds the unzipper; false when the archive ends in the middle of a file (the unzipper throws). */
function pushSlice(unzip: Unzip, slice: Uint8Array, final: boolean): boolean {
  try {
    unzip.push(slice, final);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file names of the archive's table of contents (its central directory, at its end), or null
 * when it is missing or unreadable: the upload was cut short or damaged. Nothing is decompressed.
 */
function directoryNames(zip: Uint8Array): string[] | null {
  const names: string[] = [];
  const enough = new Error("enough names");
  try {
    unzipSync(zip, {
      filter: (file) => {
        // A damaged directory may claim billions of entries; past the import's limit none is needed.
        if (names.length > IMPORT_ZIP_MAX_FILES) throw enough;
        if (!file.name.endsWith("/")) names.push(file.name);
        return false;
      },
    });
  } catch (error) {
    if (error !== enough) return null;
  }
  return names;
}

/** The directory's names the stream did not come across (each name counted as often as it occurs). */
function notSeen(listed: string[], seen: string[]): string[] {
  const left = new Map<string, number>();
  for (const name of seen) left.set(name, (left.get(name) ?? 0) + 1);
  return listed.filter((name) => {
    const count = left.get(name) ?? 0;
    left.set(name, count - 1);
    return count <= 0;
  });
}

/** Why a file is not read as an article (its report line), or null to read it. */
function reasonNotRead(file: UnzipFile): ImportItem | null {
  const parts = file.name.replaceAll("\\", "/").split("/");
  if (parts[0] === "" || /^[a-z]:$/i.test(parts[0] ?? "") || parts.includes(".."))
    return { name: file.name, skip: "The file's path leads outside the archive (`..` or an absolute path), so it was not imported" };
  if (parts[0] === "__MACOSX" || parts.some((part) => part.startsWith(".")))
    return { name: file.name, skip: "A hidden or system file (a dot file or macOS metadata)" };
  if (!MARKDOWN.test(file.name)) return { name: file.name, skip: "Not a Markdown file (.md)" };
  if (!READABLE_METHODS.has(file.compression)) {
    const method = METHOD_NAMES[file.compression];
    return {
      name: file.name,
      failure: `Compression method ${file.compression}${method ? ` (${method})` : ""} is not supported: zip the file again with Deflate (the usual) or Store`,
    };
  }
  return null;
}

/** Reads one file; it stays in `reading` until it is complete (or refused), so a cut-off file is known. */
function readFile(file: UnzipFile, reading: Set<UnzipFile>, done: (item: ImportItem) => void): void {
  const chunks: Uint8Array[] = [];
  let size = 0;
  reading.add(file);
  const finish = (item: ImportItem) => {
    reading.delete(file);
    done(item);
  };
  file.ondata = (error, chunk, final) => {
    if (!reading.has(file)) return;
    if (error) {
      finish({ name: file.name, failure: "The file is damaged in the archive" });
      return;
    }
    size += chunk.length;
    if (size > FILE_MAX_BYTES) {
      file.terminate();
      finish({
        name: file.name,
        failure: `The file is larger than an article may be (${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")} characters)`,
      });
      return;
    }
    chunks.push(chunk);
    if (final) finish(parseMarkdownFile(file.name, Buffer.concat(chunks)));
  };
  file.start();
}

/** Whether two headings say the same, whatever their case, spacing and closing punctuation. */
function sameHeading(a: string, b: string): boolean {
  const plain = (text: string) =>
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[\s.:!?]+$/u, "")
      .replace(/\s+/g, " ")
      .trim();
  return plain(a) === plain(b);
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
  const heading = /^\s*#\s+(.+?)\s*#*\s*(\r?\n|$)/.exec(body);
  // The leading heading becomes the title, or goes when it repeats the front matter's (the help
  // page shows the title above the content: it would read twice).
  if (heading && (!title || sameHeading(heading[1] ?? "", title))) {
    title ||= heading[1] ?? "";
    body = body.slice(heading[0].length);
  }
  const slug =
    typeof attributes.slug === "string" ? attributes.slug.trim() : slugFromTitle(path.posix.basename(name).replace(MARKDOWN, ""));
  const published = typeof attributes.published === "boolean" ? attributes.published : undefined;
  if (attributes.published !== undefined && published === undefined)
    return { name, failure: "`published` in the front matter must be true or false" };
  return { name, title, slug, content: body.trim(), published };
}
