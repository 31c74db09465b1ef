// The languages an article can be written in: the ones the knowledge agent reads and answers in,
// with the names the article editor shows. Plain values, safe for the panel's client components.
export const LANGUAGE_CODES = ["en", "es", "fr", "de", "pt"] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

/** Each language in its own words, as people pick it from a list. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  pt: "Português",
};
