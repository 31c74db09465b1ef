// The languages the knowledge agent reads and speaks, and which of them a text is written in.
// Detection is eld's n-gram model, restricted to these languages: a visitor writing to a help
// desk in one of them is far likelier than a look-alike language. Its smallest table
// ("extrasmall", about 29 MB of heap; "small" took 46 MB of a server capped at 256 MB) is loaded
// on the first knowledge turn, not at start (loadLanguageDetector).
import { Prisma } from "@parley/db";
import { eld } from "eld";
import { LANGUAGE_CODES } from "./codes.ts";

// The root entry is the dynamic one, which loads its table on demand (its type is a union).
const detector = eld as typeof eld & { load(size: "extrasmall"): Promise<boolean | undefined> };
let loading: Promise<void> | undefined;
let loaded = false;

/** Loads the detector's n-gram table once; detectLanguage keeps the fallback until it is loaded. */
export function loadLanguageDetector(): Promise<void> {
  loading ??= detector.load("extrasmall").then(
    (ok) => {
      loaded = ok === true;
      if (!ok) loading = undefined;
    },
    () => {
      loading = undefined;
    },
  );
  return loading ?? Promise.resolve();
}

export const LANGUAGES = LANGUAGE_CODES;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

// Courtesy words of one language only, for messages of one word.
const COURTESY: ReadonlyArray<[RegExp, Language]> = [
  [/^(?:hola|gracias|buenas|adios)$/, "es"],
  [/^(?:bonjour|bonsoir|salut|merci|coucou)$/, "fr"],
  [/^(?:hallo|danke|servus|moin|tschuss)$/, "de"],
  [/^(?:ola|oi|obrigad[oa]|valeu|tchau)$/, "pt"],
];

function languageOfCourtesy(text: string): Language | undefined {
  const word = text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}]/gu, "");
  return COURTESY.find(([pattern]) => pattern.test(word))?.[1];
}

/** On a text too short for a reliable guess, how far another language must lead the fallback. */
const UNRELIABLE_MIN_LEAD = 0.1;

/**
 * The language of `text` among LANGUAGES, or `fallback` when the text says too little to tell
 * (a product name, a code, one short word that reads as several languages: "cancel").
 */
export function detectLanguage(text: string, fallback: Language = "en"): Language {
  if (!/\p{L}{2}/u.test(text)) return languageOfCourtesy(text) ?? fallback;
  if (!loaded) return languageOfCourtesy(text) ?? fallback;
  const result = eld.detect(text.slice(0, 1000));
  const scores = result.getScores();
  let best: Language | undefined;
  let bestScore = 0;
  for (const language of LANGUAGES) {
    const score = scores[language] ?? 0;
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  if (!best) return fallback;
  if (result.isReliable()) return best;
  // One word reads as several languages ("hello" scores as Spanish): trust it only when it is
  // one of the greetings or thanks that name their language.
  const words = text.trim().split(/\s+/u);
  if (words.length < 2) return languageOfCourtesy(text) ?? fallback;
  if (bestScore - (scores[fallback] ?? 0) < UNRELIABLE_MIN_LEAD) return fallback;
  return best;
}

/**
 * An article's language in SQL (alias `alias`): the one an admin set, else the one detected when
 * its text last changed (null until the worker has detected an older article's).
 */
export function articleLanguageSql(alias: string): Prisma.Sql {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) throw new Error(`Not an SQL identifier: ${alias}`);
  return Prisma.raw(`coalesce("${alias}"."language", "${alias}"."detectedLanguage")`);
}

/**
 * An article's language: `language` as articleLanguageSql reads it, else detected from its text
 * now (once the detector is loaded).
 */
export function articleLanguageOf(article: { language: string | null; title: string; content: string }): Language {
  return article.language && isLanguage(article.language) ? article.language : detectLanguage(`${article.title}\n${article.content}`);
}
