// Excerpts and highlights of help articles, on plain text (../knowledge/articles/plain-text.ts). Matching mirrors the
// search (./search.ts) closely enough to point at what matched: case- and accent-insensitive, the
// whole query as a substring, and each query word as a word (with a common English ending
// removed, as the full-text search stems). Positions map back to the original text, so what is
// shown keeps its accents and case.

/** A piece of text, marked when it matched the query (render `match` pieces in <mark>). */
export interface TextSegment {
  text: string;
  match: boolean;
}

/**
 * About `maxChars` of `text`: around the whole query where it appears, else around the place that
 * holds the most of its different words (the first such place), else from the start; cut at word
 * boundaries, with "…" where text was left out.
 */
export function excerpt(text: string, query: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const match = bestMatch(text, query, maxChars);
  let start = 0;
  if (match) {
    const centre = Math.floor((match.start + match.end) / 2);
    start = Math.max(0, Math.min(centre - Math.floor(maxChars / 2), text.length - maxChars));
    // Never cut into the match itself.
    start = Math.min(start, match.start);
  }
  let end = Math.min(text.length, start + maxChars);
  if (start > 0) start = wordStartAtOrAfter(text, start, match?.start ?? start);
  if (end < text.length) end = wordEndAtOrBefore(text, end, match?.end ?? start);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}

/** `text` split into matched and unmatched pieces (empty query: one unmatched piece). */
export function highlight(text: string, query: string): TextSegment[] {
  const ranges = matchRanges(text, query);
  const segments: TextSegment[] = [];
  let position = 0;
  for (const range of ranges) {
    if (range.start > position) segments.push({ text: text.slice(position, range.start), match: false });
    segments.push({ text: text.slice(range.start, range.end), match: true });
    position = range.end;
  }
  if (position < text.length || segments.length === 0) segments.push({ text: text.slice(position), match: false });
  return segments;
}

interface Range {
  start: number;
  end: number;
}

/** Minimum query length for substring matches (the search's trigram minimum). */
const SUBSTRING_MIN_CHARS = 3;
/** Words the full-text search ignores; highlighting them everywhere would only add noise. */
const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to up was we were what when where which who why will with you your".split(
    " ",
  ),
);

/** Of the matches an excerpt may hold together, at most this share of its length apart. */
const CLUSTER_SHARE = 0.8;
/** Matches looked at for the best place (a long article repeats its common words). */
const CLUSTER_CANDIDATES = 200;

/**
 * Where the whole query appears; else the run of matches within CLUSTER_SHARE of `maxChars` that
 * holds the most different words ("charged twice" over three "month"s), the first of the best.
 */
function bestMatch(text: string, query: string, maxChars: number): Range | undefined {
  const ranges = matchRanges(text, query).slice(0, CLUSTER_CANDIDATES);
  const phrase = foldQuery(query);
  const whole = phrase && ranges.find((range) => fold(text.slice(range.start, range.end)).folded.includes(phrase));
  if (whole) return whole;
  const words = ranges.map((range) => stemOf(fold(text.slice(range.start, range.end)).folded));
  let best: { range: Range; count: number } | undefined;
  ranges.forEach((first, i) => {
    const seen = new Set<string>();
    let end = first.end;
    for (let j = i; j < ranges.length && ranges[j]!.end - first.start <= maxChars * CLUSTER_SHARE; j++) {
      seen.add(words[j]!);
      end = ranges[j]!.end;
    }
    if (!best || seen.size > best.count) best = { range: { start: first.start, end }, count: seen.size };
  });
  return best?.range;
}

/** Non-overlapping matched ranges of the original text, in order. */
export function matchRanges(text: string, query: string): Range[] {
  const phrase = foldQuery(query);
  if (!phrase) return [];
  const { folded, map } = fold(text);
  const toOriginal = (start: number, end: number): Range => ({ start: map(start), end: map(end) });
  const found: Range[] = [];

  if ([...phrase].length >= SUBSTRING_MIN_CHARS) {
    for (let at = folded.indexOf(phrase); at !== -1; at = folded.indexOf(phrase, at + phrase.length)) {
      found.push(toOriginal(at, at + phrase.length));
    }
  }
  for (const word of new Set(phrase.split(/[^\p{L}\p{N}]+/u))) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    const stem = stemOf(word);
    // A word starting with the stem, taken to its end: "refunds" marks "refund" and "refunded".
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(stem)}[\\p{L}\\p{N}]*`, "gu");
    for (const hit of folded.matchAll(pattern)) {
      found.push(toOriginal(hit.index, hit.index + hit[0].length));
    }
  }
  return mergeRanges(found);
}

/** Removes one common English ending, as the search's stemmer would; keeps at least 3 letters. */
function stemOf(word: string): string {
  const stem = word.replace(/(?:ing|ed|es|s|ly)$/u, "");
  return stem.length >= 3 && stem !== word ? stem : word;
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = ranges.filter((range) => range.end > range.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function foldQuery(query: string): string {
  return fold(query.trim().replace(/\s+/g, " ")).folded;
}

/** Letters unaccent maps that Unicode decomposition does not. */
const EXTRA_FOLDS: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th", ð: "d", ı: "i" };

/**
 * Lower case without accents, with `map(i)` = index in `text` of folded character i (and
 * `map(folded.length)` = text.length), so matches in the folded text map back.
 */
function fold(text: string): { folded: string; map: (index: number) => number } {
  // ASCII (most help text): lower case is the whole fold, index for index. The general path
  // below normalises each character, which cost about 0.5 ms per article excerpt.
  if (isAscii(text)) return { folded: text.toLowerCase(), map: (index) => index };
  let folded = "";
  const map: number[] = [];
  let index = 0;
  for (const char of text) {
    const lower = char.toLowerCase();
    // Only non-ASCII characters can carry accents.
    const plain = char < "\x80" ? lower : (EXTRA_FOLDS[lower] ?? lower.normalize("NFKD").replace(/\p{M}/gu, ""));
    for (let i = 0; i < plain.length; i++) map.push(index);
    folded += plain;
    index += char.length;
  }
  map.push(text.length);
  return { folded, map: (i) => map[i]! };
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The start of the first word at or after `index`, not past `limit`. */
function wordStartAtOrAfter(text: string, index: number, limit: number): number {
  if (/\s/.test(text[index - 1] ?? " ")) return index;
  const space = text.slice(index, limit).search(/\s/);
  return space === -1 ? index : index + space + 1;
}

/** The end of the last whole word at or before `index`, not before `limit`. */
function wordEndAtOrBefore(text: string, index: number, limit: number): number {
  if (/\s/.test(text[index] ?? " ")) return index;
  const space = text.slice(limit, index).search(/\s\S*$/);
  return space === -1 ? index : limit + space;
}
