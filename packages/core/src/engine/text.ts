// Text handling for the knowledge agent: the words of a message that say what it is about, a
// crude match of those words in an article, and an article's Markdown read as sections of
// plain sentences.
import { marked, type Token, type Tokens } from "marked";
import { KNOWLEDGE_QUERY_MAX_WORDS } from "../limits.ts";

// Words that carry no subject: English stop words, question and filler words of a support chat.
// The database drops its own stop words too; these are the ones it would keep ("please", "help").
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any anyone anything are aren as ask at be because been before being " +
    "below between both but by can cannot cant could couldnt did didnt do does doesnt doing dont down during each else ever " +
    "every few for from further get gets getting give go going got had hasnt have havent having he hello her here hers hey hi " +
    "him his how hows i id if im in into is isnt it its itll ive just know let lets like me mine more most much must my myself " +
    "need needs no nor not now of off ok okay on once only or other ought our ours out over own please possible pls question " +
    "quick really regarding same say she should shouldnt so some someone something still such sure tell than thank thanks that " +
    "thats the their them then there theres these they this those through to too try trying under until up us use very want " +
    "wanted was wasnt way we were what whats when where which while who whom whos why will with within without wont would " +
    "wouldnt yes yet you youre your yours help hows able anyway kind sort thing things"
  ).split(" "),
);

/** Lower case without accents or apostrophes. */
function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/['’`]/g, "");
}

/** The words of a message that say what it is about, in order, without repeats (a bounded number). */
export function keywords(message: string): string[] {
  const words = normalize(message).split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)))].slice(0, KNOWLEDGE_QUERY_MAX_WORDS);
}

/** A crude stem for matching in JS ("refunds", "refunded" -> "refun"); Postgres stems properly. */
function stem(word: string): string {
  return word.length <= 4 ? word : word.slice(0, Math.max(4, Math.ceil(word.length * 0.75)));
}

function containsWord(normalizedText: string, word: string): boolean {
  return normalizedText.includes(stem(word));
}

/** How many of `words` occur in `text`. */
export function wordsIn(text: string, words: string[]): number {
  const normalized = normalize(text);
  return words.filter((word) => containsWord(normalized, word)).length;
}

// ---------------------------------------------------------------------------------------------
// An article as sections of sentences

export interface Section {
  heading: string;
  sentences: string[];
}

/** Plain text of inline Markdown tokens (links keep their text, code keeps its content). */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  return tokens
    .map((token) => {
      if (token.type === "html") return "";
      if ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0) return inlineText(token.tokens);
      return "text" in token && typeof token.text === "string" ? token.text : "";
    })
    .join("");
}

function sentencesOf(text: string): string[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return [];
  return flat
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

function asSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return /[.!?:;]$/.test(flat) ? flat : `${flat}.`;
}

/** The article as sections (the part before the first heading has an empty heading). */
export function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: "", sentences: [] }];
  const addBlock = (token: Token) => {
    const current = sections[sections.length - 1]!;
    if (token.type === "heading") {
      sections.push({ heading: inlineText((token as Tokens.Heading).tokens), sentences: [] });
    } else if (token.type === "paragraph" || token.type === "text") {
      current.sentences.push(...sentencesOf(inlineText((token as Tokens.Paragraph).tokens)));
    } else if (token.type === "list") {
      for (const item of (token as Tokens.List).items) {
        // An item may hold paragraphs and nested lists; each item is one step or point.
        const text = item.tokens
          .map((child) => (child.type === "list" ? "" : inlineText("tokens" in child ? child.tokens : undefined)))
          .join(" ");
        if (text.trim()) current.sentences.push(...sentencesOf(asSentence(text)));
      }
    } else if (token.type === "table") {
      // Each row reads as "first cell: other cells." ("Credit or debit card: 5 to 10 business days.").
      for (const row of (token as Tokens.Table).rows) {
        const [first, ...rest] = row.map((cell) => inlineText(cell.tokens).trim());
        if (first) current.sentences.push(asSentence(rest.some(Boolean) ? `${first}: ${rest.filter(Boolean).join(", ")}` : first));
      }
    } else if (token.type === "blockquote") {
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(child);
    }
    // Code blocks, rules and HTML do not read well as a chat answer: the article link has them.
  };
  for (const token of marked.lexer(markdown)) addBlock(token);
  return sections.filter((section) => section.sentences.length > 0);
}
