// The languages the knowledge agent reads and speaks, and which of them a text is written in.
// Detection is eld's n-gram model (the small static dictionary), restricted to these languages:
// a visitor writing to a help desk in one of them is far likelier than a look-alike language.
import { eld } from "eld/small";

export const LANGUAGES = ["en", "es", "fr", "de", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** On a text too short for a reliable guess, how far another language must lead the fallback. */
const UNRELIABLE_MIN_LEAD = 0.1;

/**
 * The language of `text` among LANGUAGES, or `fallback` when the text says too little to tell
 * (a product name, a code, one short word that reads as several languages: "cancel").
 */
export function detectLanguage(text: string, fallback: Language = "en"): Language {
  if (!/\p{L}{2}/u.test(text)) return fallback;
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
  if (!result.isReliable() && bestScore - (scores[fallback] ?? 0) < UNRELIABLE_MIN_LEAD) return fallback;
  return best;
}
