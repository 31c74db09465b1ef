/// <reference path="./stopword.d.ts" />
// Text analysis shared by the passage index and the queries it answers: words folded (lower
// case, no accents or apostrophes), stop words of the language dropped, and each word reduced to
// its Snowball stem (@orama/stemmers) so "refunds", "refunded" and "refunding" meet.

import { stemmer as stemEn } from "@orama/stemmers/english";
import { stemmer as stemFr } from "@orama/stemmers/french";
import { stemmer as stemDe } from "@orama/stemmers/german";
import { stemmer as stemPt } from "@orama/stemmers/portuguese";
import { stemmer as stemEs } from "@orama/stemmers/spanish";
import { deu, eng, fra, por, porBr, spa } from "stopword";
import type { Language } from "../languages/detection.ts";

const STEMMERS: Record<Language, (word: string) => string> = { en: stemEn, es: stemEs, fr: stemFr, de: stemDe, pt: stemPt };

/** Lower case without accents or apostrophes ("Réinitialiser" -> "reinitialiser", "can't" -> "cant"). */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/['’`]/g, "");
}

/** The folded words of a text, in order (letters and digits; everything else separates). */
export function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

// Words of a support chat that say nothing about its subject, on top of each language's list.
const CHAT_FILLER: Record<Language, string> = {
  // English: also contractions and pronouns the general list leaves out ("arent", "myself").
  en:
    "able about again already always any anymore anyone anything anyway aren arent ask asking cannot cant couldnt didnt " +
    "does doesnt doing dont else even ever every everyone go going gonna hadnt hasnt havent hello help heres hers herself " +
    "hes hey hi hows id im isnt itll its itself ive just kind know let lets maybe mine myself need needs no nor not ok okay " +
    "one ourselves please pls possible question quick really regarding say see she shes shouldnt someone something sort " +
    "sure tell thank thanks thats themselves theres theyd theyll theyre theyve thing things try trying us want wanted wasnt " +
    "werent weve whats wheres whos wont wouldnt yes yet youd youll youre yours yourself yourselves youve",
  es: "hola gracias por favor quiero necesito puedo saber ayuda pregunta hay",
  fr: "bonjour merci stp svp veux voudrais peux puis savoir aide question faut",
  de: "hallo danke bitte moechte mochte kann konnen wissen hilfe frage",
  pt: "ola obrigado obrigada favor quero preciso posso saber ajuda pergunta",
};

const STOP_WORDS: Record<Language, ReadonlySet<string>> = {
  en: stopSet(eng, CHAT_FILLER.en),
  es: stopSet(spa, CHAT_FILLER.es),
  fr: stopSet(fra, CHAT_FILLER.fr),
  de: stopSet(deu, CHAT_FILLER.de),
  pt: stopSet([...por, ...porBr], CHAT_FILLER.pt),
};

function stopSet(list: readonly string[], filler: string): ReadonlySet<string> {
  return new Set([...list.map(fold), ...filler.split(" ")]);
}

export function isStopWord(word: string, language: Language): boolean {
  return (word.length < 2 && !/\d/.test(word)) || STOP_WORDS[language].has(word);
}

const stopStems: Partial<Record<Language, ReadonlySet<string>>> = {};

/** Whether `word` is another form of a stop word ("sees", "wants", "tried"): its stem is one's. */
export function isStopWordForm(word: string, language: Language): boolean {
  stopStems[language] ??= new Set([...STOP_WORDS[language]].map((stopWord) => stem(stopWord, language)));
  return stopStems[language]!.has(stem(word, language));
}

// Stemming is the costliest step of indexing and the same words recur: remember each language's
// stems (bounded, so an unusual corpus cannot grow it without end).
const STEM_CACHE_MAX = 200_000;
const stemCaches: Record<Language, Map<string, string>> = { en: new Map(), es: new Map(), fr: new Map(), de: new Map(), pt: new Map() };

/** The stem of a folded word in a language; numbers and codes stay as they are. */
export function stem(word: string, language: Language): string {
  if (word.length < 3 || /\d/.test(word)) return word;
  const cache = stemCaches[language];
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    stemmed = STEMMERS[language](word);
    if (cache.size >= STEM_CACHE_MAX) cache.clear();
    cache.set(word, stemmed);
  }
  return stemmed;
}

/** The stems of a text's subject words, in order (stop words dropped). */
export function termsOf(text: string, language: Language): string[] {
  const terms: string[] = [];
  for (const word of wordsOf(text)) if (!isStopWord(word, language)) terms.push(stem(word, language));
  return terms;
}

/**
 * The joined forms of a text's hyphenated words ("sub-folder" as "subfolder", "e-mail" as
 * "email"), as written (folded): a visitor often writes together what the help centre hyphenates.
 */
export function joinedWordsOf(text: string): string[] {
  const joined: string[] = [];
  for (const match of fold(text).matchAll(/(?<![\p{L}\p{N}-])(\p{L}+(?:-\p{L}+)+)(?![\p{L}\p{N}-])/gu))
    joined.push(match[1]!.replaceAll("-", ""));
  return joined;
}
