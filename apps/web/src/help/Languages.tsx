// The help pages in several languages: an article's "Also in" links to its visible translations,
// and the lists' language filter. Each link names its language in that language, marked with
// `lang` (read aloud correctly) and `hrefLang` (the page it opens).

import type { HelpLanguageFilter, HelpTranslation } from "@parley/core/help";
import Link from "next/link";

/** "Also in: Español, Français" under an article's title; nothing when it has no other visible language. */
export function ArticleLanguages(props: { hrefOf: (slug: string) => string; translations: HelpTranslation[] }) {
  const others = props.translations.filter((translation) => !translation.current);
  if (others.length === 0) return null;
  return (
    // Inside the article, whose lang is the article's: the label is in the pages' own English.
    <nav aria-label="Other languages" className="help-languages" lang="en">
      <span>Also in:</span>
      <ul>
        {others.map((translation) => (
          <li key={translation.language}>
            <Link href={props.hrefOf(translation.slug)} hrefLang={translation.language} lang={translation.language}>
              {translation.languageName}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The list's language filter: "All languages" and each language, the applied one marked as the
 * current page. Plain links, so it works without JavaScript and from the keyboard.
 */
export function LanguageFilter(props: { filter: HelpLanguageFilter; hrefOf: (language?: string) => string }) {
  if (props.filter.languages.length === 0) return null;
  const current = props.filter.language;
  return (
    <nav aria-label="Language" className="help-language-filter">
      <span>Language:</span>
      <ul>
        <li>
          <Link href={props.hrefOf()} aria-current={current === null ? "page" : undefined}>
            All languages
          </Link>
        </li>
        {props.filter.languages.map(({ language, languageName }) => (
          <li key={language}>
            <Link
              href={props.hrefOf(language)}
              hrefLang={language}
              lang={language}
              aria-current={current === language ? "page" : undefined}
            >
              {languageName}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The hreflang alternates of a filtered list: each language's listing, and the whole list as x-default. */
export function listLanguageAlternates(
  filter: HelpLanguageFilter,
  hrefOf: (language?: string) => string,
): Record<string, string> | undefined {
  if (filter.languages.length === 0) return undefined;
  return {
    ...Object.fromEntries(filter.languages.map(({ language }) => [language, hrefOf(language)])),
    "x-default": hrefOf(),
  };
}
