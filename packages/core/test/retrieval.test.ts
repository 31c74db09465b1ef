// The pieces of the knowledge search, each on its own: stems, typo corrections, synonyms (built-in
// and an agent's), reciprocal rank fusion, the confidence to answer, language detection and the
// handoff, greeting and thanks phrases of five languages. No database: the index is built from
// articles in memory.
import { beforeAll, describe, expect, it } from "vitest";
import { answersQuestion, confidenceInputs, confidenceOf, KNOWLEDGE_MIN_CONFIDENCE } from "../src/engine/confidence.ts";
import { asksForHuman, isGreeting, isThanks } from "../src/engine/intent.ts";
import { detectLanguage, type Language, loadLanguageDetector } from "../src/knowledge/languages/detection.ts";
import { termsOf } from "../src/knowledge/search/analyze.ts";
import { isEnglishWord, isSpellingVariant } from "../src/knowledge/search/english-words.ts";
import { reciprocalRankFusion } from "../src/knowledge/search/fusion.ts";
import { editDistance, type IndexedArticle, PassageIndex } from "../src/knowledge/search/passage-index.ts";
import { analyzeQuery } from "../src/knowledge/search/query.ts";
import { fuse, messageLanguage, type RankedPassage, rankArticles, searchRanking } from "../src/knowledge/search/rank.ts";
import { builtInSynonyms, parseSynonymGroups, type SynonymGroup } from "../src/knowledge/search/synonyms.ts";

const ARTICLES: IndexedArticle[] = [
  {
    id: "password",
    title: "Reset your password",
    language: "en",
    content:
      "Use the reset link when you cannot sign in.\n\n## Reset the password\n\nOpen the sign-in page and choose Forgot password.\n\n## Password rules\n\nA password needs at least 12 characters.",
  },
  {
    id: "refunds",
    title: "Refund policy",
    language: "en",
    content: "Annual plans are refunded within 30 days.\n\n## Double charges\n\nCharged by mistake? We always refund the wrong charge.",
  },
  { id: "invoices", title: "Download invoices", language: "en", content: "Every invoice is in Settings, Billing, Invoices, as a PDF." },
  { id: "schedule", title: "Publish the schedule", language: "en", content: "Publish the week so that employees see their shifts." },
  {
    id: "password-es",
    title: "Restablecer la contraseña",
    language: "es",
    content: "Abre la página de inicio de sesión y elige Olvidé mi contraseña.",
  },
];
const index = new PassageIndex(ARTICLES);

beforeAll(() => loadLanguageDetector());

function rank(message: string, options: { previous?: string[]; synonyms?: (language: Language) => readonly SynonymGroup[] } = {}) {
  return rankArticles({ index, synonyms: options.synonyms ?? builtInSynonyms, message, previous: options.previous ?? [] });
}

describe("stems", () => {
  it("reduce the forms of a word to one stem, per language, without stop words or accents", () => {
    expect(new Set(termsOf("refund refunds refunded refunding", "en"))).toEqual(new Set(["refund"]));
    expect(termsOf("How do I download my invoices?", "en")).toEqual(["download", "invoic"]);
    expect(termsOf("¿Dónde están mis facturas?", "es")).toEqual(termsOf("donde estan mis factura", "es"));
    expect(termsOf("Rechnungen herunterladen", "de")).toEqual(termsOf("Rechnung herunterladen", "de"));
  });
});

describe("words as people write them", () => {
  const versions: IndexedArticle[] = [
    {
      id: "win78",
      title: "The desktop app on older releases of Windows: 7 and 8",
      language: "en",
      content: "Version 1 runs on Windows 7 and 8.",
    },
    {
      id: "win10",
      title: "The desktop app on Windows 10 and later",
      language: "en",
      content: "The desktop app, version 3, runs on Windows 10 and 11: download the desktop app for Windows from the website.",
    },
    {
      id: "sub",
      title: "Selective sync of sub-folders",
      language: "en",
      content: "Pick a sub-folder of a library to keep, or several sub-folders.",
    },
    { id: "libraries", title: "Syncing a library", language: "en", content: "The app keeps every folder of a library in sync." },
  ];
  const versionIndex = new PassageIndex(versions);
  const top = (message: string) =>
    rankArticles({ index: versionIndex, synonyms: builtInSynonyms, message, previous: [] }).articles[0]?.articleId;

  it("keep a single digit, which tells one version from another", () => {
    expect(top("desktop app for windows 7")).toBe("win78");
    expect(top("desktop app for windows 10")).toBe("win10");
  });

  it("find a word the help centre writes as one when the visitor writes it as two", () => {
    const sheets = new PassageIndex([
      ...ARTICLES,
      { id: "timesheets", title: "Timesheet totals", language: "en", content: "A timesheet adds up the time worked in the week." },
      { id: "sheets", title: "Export a sheet", language: "en", content: "Each sheet exports as CSV." },
    ]);
    const analyzed = analyzeQuery(sheets, "time sheet totals", "en", () => []);
    expect(analyzed.terms).toContainEqual({ term: "timesheet", weight: 0.6, sources: analyzed.words[0]!.bit | analyzed.words[1]!.bit });
    expect(
      rankArticles({ index: sheets, synonyms: builtInSynonyms, message: "my time sheet is wrong", previous: [] }).articles[0]?.articleId,
    ).toBe("timesheets");
  });

  it("find a hyphenated word written as one, typo or not", () => {
    expect(top("sync only one subfolder")).toBe("sub");
    expect(top("sync only one subfoldr")).toBe("sub");
  });
});

describe("the search list", () => {
  it("puts the article whose title the query names whole above one whose longer title names it among other words", () => {
    const articles: IndexedArticle[] = [
      {
        id: "sync-errors",
        title: "Sync errors: conflicts, deletions and file-count limits",
        language: "en",
        content:
          "## Conflicts\n\nWhen two people change the same file, the app keeps both files: the conflict copy of the file is named after the person.\n\n## File-count limits\n\nA library of more than 100,000 files does not sync.",
      },
      {
        id: "conflicts",
        title: "File conflicts",
        language: "en",
        content: "Two people edited one document at once: the later save is kept as a copy beside it.",
      },
      { id: "other", title: "Sharing a library", language: "en", content: "Share a library with a group." },
    ];
    const ranking = searchRanking(new PassageIndex(articles), builtInSynonyms, "conflict files");
    expect(ranking.articles.map((match) => match.articleId).slice(0, 2)).toEqual(["conflicts", "sync-errors"]);
  });
});

describe("typos", () => {
  it("count a swap of two neighbouring letters as one edit", () => {
    expect(editDistance("refnud", "refund")).toBe(1);
    expect(editDistance("pasword", "password")).toBe(1);
    expect(editDistance("refund", "refund")).toBe(0);
  });

  it("correct an unknown word to a written one nearby, but leave short words alone", () => {
    expect(index.correctionsOf("pasword")).toContain("password");
    expect(index.correctionsOf("invoice")).toEqual([]); // written already
    expect(index.correctionsOf("pas")).toEqual([]);
    expect(rank("pasword rules").articles[0]).toMatchObject({ articleId: "password", coverage: 1 });
  });

  it("correct a four-letter word that is no English word, and no four-letter word that is one", () => {
    const groups = new PassageIndex([
      ...ARTICLES,
      { id: "groups", title: "Managing groups", language: "en", content: "Create a group, then add people to the group." },
      { id: "files", title: "Locking a file", language: "en", content: "Lock a file so that nobody else edits the file." },
      { id: "themes", title: "Dark theme", language: "en", content: "Switch the code view to the dark theme." },
    ]);
    expect(searchRanking(groups, builtInSynonyms, "create a grup").corrections).toEqual([
      { position: 2, written: "grup", corrected: "group" },
    ]);
    expect(rankArticles({ index: groups, synonyms: builtInSynonyms, message: "create a grup", previous: [] }).articles[0]?.articleId).toBe(
      "groups",
    );
    // A swap of two letters is one edit: "fiel" is "file".
    expect(searchRanking(groups, builtInSynonyms, "lock a fiel").corrections).toEqual([
      { position: 2, written: "fiel", corrected: "file" },
    ]);
    // "mode" is one letter from "code", but a word: not even where the message reads as French.
    expect(groups.correctionsOf("mode")).toContain("code");
    expect(analyzeQuery(groups, "dark mode", "en", () => []).corrections).toEqual([]);
    expect(analyzeQuery(groups, "dark mode", "fr", () => []).corrections).toEqual([]);
  });

  it("read another form of a stop word the help centre never writes as a stop word, not as an unknown subject", () => {
    // "see" is a stop word of chats; "sees" is not, and nothing in these articles says it.
    const analyzed = analyzeQuery(index, "who sees my invoices", "en", () => []);
    expect(analyzed.terms.map((term) => term.term)).toEqual(["invoic"]);
    expect(analyzed.words).toEqual([expect.objectContaining({ unknown: false })]);
    // Written in the help centre, the same form is a word like any other.
    const written = new PassageIndex([
      ...ARTICLES,
      { id: "sees", title: "Who sees what", language: "en", content: "Everyone sees the schedule." },
    ]);
    expect(analyzeQuery(written, "who sees my invoices", "en", () => []).terms.map((term) => term.term)).toContain("see");
  });

  it("never correct a word into a stop word, which nothing indexes", () => {
    const whileIndex = new PassageIndex([
      ...ARTICLES,
      { id: "while", title: "While you wait", language: "en", content: "While it syncs, and while it uploads, wait a while." },
    ]);
    expect(whileIndex.correctionsOf("whole")).toContain("while");
    const analyzed = analyzeQuery(whileIndex, "sync the whole library", "en", () => []);
    expect(analyzed.corrections).toEqual([]);
    expect(analyzed.terms.map((term) => term.term)).not.toContain("while");
    expect(analyzed.terms.map((term) => term.term)).toContain("whole");
  });

  it("read an English word spelled right as written, except in the help centre's other spelling", () => {
    const shop = new PassageIndex([
      ...ARTICLES,
      { id: "leather", title: "Leather care", language: "en", content: "Leather bags: clean leather with a dry cloth. Leather, leather." },
      { id: "break", title: "Take a break", language: "en", content: "A break of ten minutes. Breaks are paid; break rules apply." },
      {
        id: "organization",
        title: "Your organization",
        language: "en",
        content: "Rename the organization. The organization owner decides.",
      },
    ]);
    expect(shop.correctionsOf("weather")).toContain("leather");
    expect(searchRanking(shop, builtInSynonyms, "weather tomorrow").corrections).toEqual([]);
    expect(searchRanking(shop, builtInSynonyms, "banana bread recipe").corrections).toEqual([]);
    // A typo is still one: "lether" is no word, and "organisation" is how the British write "organization".
    expect(searchRanking(shop, builtInSynonyms, "lether bag").corrections).toEqual([
      { position: 0, written: "lether", corrected: "leather" },
    ]);
    expect(searchRanking(shop, builtInSynonyms, "rename organisation").corrections).toEqual([
      { position: 1, written: "organisation", corrected: "organization" },
    ]);
    expect(rank("rename organisation").articles[0]?.articleId).not.toBe("leather");
  });

  it("tell British from American spellings of one word", () => {
    for (const [a, b] of [
      ["organisation", "organization"],
      ["colour", "color"],
      ["centre", "center"],
      ["cancelled", "canceled"],
      ["favourite", "favorite"],
    ]) {
      expect(isSpellingVariant(a!, b!), `${a} ${b}`).toBe(true);
      expect(isSpellingVariant(b!, a!), `${b} ${a}`).toBe(true);
    }
    for (const [a, b] of [
      ["weather", "leather"],
      ["bread", "break"],
      ["whole", "while"],
      ["clock", "click"],
    ]) {
      expect(isSpellingVariant(a!, b!), `${a} ${b}`).toBe(false);
    }
    expect(isEnglishWord("weather")).toBe(true);
    expect(isEnglishWord("colour") && isEnglishWord("color")).toBe(true);
    expect(isEnglishWord("pasword")).toBe(false);
  });

  it("correct the word as written, not its stem, and pick the correction the articles use beside a neighbouring word", () => {
    // "chaged": one letter from "charged" and from "changed"; its stem "chage" is two from "charg".
    const charges = new PassageIndex([
      ...ARTICLES,
      {
        id: "changes",
        title: "Changed shifts",
        language: "en",
        content: "A changed shift is changed for everyone. Changed, changed, changed.",
      },
      {
        id: "charged-twice",
        title: "Charged twice",
        language: "en",
        content: "Charged twice? A card is sometimes charged twice when a payment is retried.",
      },
    ]);
    expect(charges.correctionsOf("chaged")).toEqual(expect.arrayContaining(["changed", "charged"]));
    const result = rankArticles({ index: charges, synonyms: () => [], message: "i was chaged twice", previous: [] });
    expect(result.articles[0]?.articleId).toBe("charged-twice");
  });

  it("search a word of another language as the articles it is written in index it", () => {
    // "contraseña" alone is too short to detect as Spanish; it is searched by its Spanish stem.
    expect(index.writtenTerm("contrasena")).toBe(termsOf("contraseña", "es")[0]);
    const result = rankArticles({ index, synonyms: () => [], message: "contraseña", previous: [], fallbackLanguage: "en" });
    expect(result.articles[0]?.articleId).toBe("password-es");
  });
});

describe("synonyms", () => {
  it("find an article by a built-in synonym phrase", () => {
    const result = rank("I got a duplicate charge");
    expect(result.articles[0]?.articleId).toBe("refunds");
    expect(answersQuestion(result)).toBe(true);
  });

  it("find an English article from a question in another language through the built-in groups, by the English stems", () => {
    const withNotifications = new PassageIndex([
      ...ARTICLES,
      {
        id: "notifications",
        title: "Notifications",
        language: "en",
        content: "Turn notifications on or off under Settings, then Notifications.",
      },
    ]);
    const result = rankArticles({
      index: withNotifications,
      synonyms: builtInSynonyms,
      message: "Wie schalte ich die Benachrichtigungen aus?",
      previous: [],
    });
    expect(result.language).toBe("de");
    expect(result.articles[0]?.articleId).toBe("notifications");
  });

  it("use an agent's own groups, which a line of text defines", () => {
    const own = parseSynonymGroups("rota, schedule\n");
    expect(own).toEqual([[["rota"], ["schedul"]]]);
    const without = rank("publish the roster", { synonyms: () => [] });
    expect(without.articles[0]?.coverage ?? 0).toBeLessThan(1);
    const withOwn = rank("is the rota out", { synonyms: () => parseSynonymGroups("rota, schedule") });
    expect(withOwn.articles[0]?.articleId).toBe("schedule");
  });

  it("credit a several-word phrase only where it occurs whole", () => {
    // "reset password" is a synonym of "lost password": "lost" alone says nothing about passwords.
    const groups = parseSynonymGroups("reset password, lost password");
    const lone = new PassageIndex([{ id: "lost", title: "Lost and found", language: "en", content: "Lost items are kept for a week." }]);
    const result = rankArticles({ index: lone, synonyms: () => groups, message: "reset password", previous: [] });
    expect(result.articles[0]?.coverage ?? 0).toBe(0);
  });
});

describe("phrases", () => {
  const links = new PassageIndex([
    {
      id: "scattered",
      title: "Links and sharing",
      language: "en",
      content: "Share a folder with a group. Each link opens the folder; share it again to add people. A link lasts.",
    },
    { id: "phrase", title: "Expiry", language: "en", content: "A share link expires after seven days unless you renew it." },
  ]);

  it("rank a body that writes the question's words as one phrase above one that scatters them", () => {
    expect(links.documentFrequency("share link")).toBe(1);
    const ranking = rankArticles({ index: links, synonyms: () => [], message: "when does my share link stop working", previous: [] });
    expect(ranking.articles.map((article) => article.articleId)).toEqual(["phrase", "scattered"]);
  });

  it("count a phrase in a title and in a body as the same term, for one passage", () => {
    const both = new PassageIndex([
      { id: "both", title: "Upload links", language: "en", content: "An upload link collects files. Send the upload link to clients." },
    ]);
    expect(both.documentFrequency("upload link")).toBe(1);
    const [entry] = both.score([{ term: "upload link", weight: 1, sources: 1 }]).values();
    expect(entry?.titleMatched).toBe(1);
    const titleOnly = new PassageIndex([
      { id: "title", title: "Upload links", language: "en", content: "It collects files from clients." },
    ]);
    const [titled] = titleOnly.score([{ term: "upload link", weight: 1, sources: 1 }]).values();
    expect(entry!.score).toBeGreaterThan(titled!.score);
  });
});

describe("fusion", () => {
  const passage = (articleId: string, section = 0): RankedPassage => ({ articleId, section, score: 1 });
  const key = (item: RankedPassage) => `${item.articleId}/${item.section}`;

  it("passes one ranking through unchanged", () => {
    const lexical = [passage("a"), passage("b"), passage("c")];
    expect(fuse(lexical, [])).toEqual(lexical);
    expect(fuse(lexical, [[]])).toEqual(lexical);
  });

  it("ranks first what both rankings rank well", () => {
    const lexical = [passage("a"), passage("b"), passage("c")];
    const semantic = [passage("b"), passage("d"), passage("c")];
    expect(reciprocalRankFusion([lexical, semantic], key).map((item) => item.articleId)).toEqual(["b", "c", "a", "d"]);
    // A passage is (article, section): another section of the same article is another item.
    expect(reciprocalRankFusion([[passage("a", 0)], [passage("a", 1)]], key)).toHaveLength(2);
  });
});

describe("the confidence to answer", () => {
  it("is enough when the best article holds the question's subject words", () => {
    const result = rank("how many characters does a password need");
    expect(result.articles[0]?.articleId).toBe("password");
    expect(answersQuestion(result)).toBe(true);
  });

  it("is too low when the question's main words are nowhere in the help centre", () => {
    const result = rank("do you accept bitcoin for the invoice");
    expect(result.articles[0]?.articleId).toBe("invoices");
    expect(confidenceInputs(result, 0).unknown).toBeGreaterThan(0);
    expect(answersQuestion(result)).toBe(false);
    expect(answersQuestion(rank("what is the weather in chicago tomorrow"))).toBe(false);
  });

  it("is enough whenever the best article's title names most of the question, however the rest is worded", () => {
    const platforms = ["WordPress", "Shopify", "Webflow", "Squarespace", "Wix", "Drupal", "Joomla", "Ghost"].map(
      (platform): IndexedArticle => ({
        id: platform.toLowerCase(),
        title: platform,
        language: "en",
        content: `To install the chatbot on your ${platform} website, paste the snippet before the closing body tag of your theme, then publish the theme.`,
      }),
    );
    const index = new PassageIndex(platforms);
    const result = rankArticles({ index, synonyms: () => [], message: "how to install the chatbot on a webflow website", previous: [] });
    expect(result.articles[0]?.articleId).toBe("webflow");
    expect(answersQuestion(result)).toBe(true);
    // The title carries it: with nothing else in its favour, 0.6 of the question in the title answers.
    const titleOnly = { coverage: 0.6, title: 0.6, margin: 0, evidence: 0, unknown: 0, strength: 0 };
    expect(confidenceOf(titleOnly)).toBeGreaterThanOrEqual(KNOWLEDGE_MIN_CONFIDENCE);
    expect(confidenceOf({ ...titleOnly, title: 0 })).toBeLessThan(KNOWLEDGE_MIN_CONFIDENCE);
  });

  it("reads a match's strength on the help centre's own scale, so that its size does not decide", () => {
    const unrelated = Array.from(
      { length: 300 },
      (_, i): IndexedArticle => ({
        id: `other-${i}`,
        title: `Topic ${i}`,
        language: "en",
        content: `Open Settings to change option ${i}.`,
      }),
    );
    const small = rankArticles({ index, synonyms: () => [], message: "how many characters does a password need", previous: [] });
    const large = rankArticles({
      index: new PassageIndex([...ARTICLES, ...unrelated]),
      synonyms: () => [],
      message: "how many characters does a password need",
      previous: [],
    });
    expect(large.articles[0]?.articleId).toBe("password");
    const [a, b] = [confidenceInputs(small, 0).strength, confidenceInputs(large, 0).strength];
    expect(a).toBeGreaterThan(0);
    expect(Math.abs(a - b) / a).toBeLessThan(0.25);
  });

  it("is enough for a long message that rambles but names several of one article's specific words", () => {
    // In a help centre of realistic size, where specific words are rare enough to weigh.
    const filler = Array.from(
      { length: 60 },
      (_, i): IndexedArticle => ({
        id: `filler-${i}`,
        title: `Topic ${i}`,
        language: "en",
        content: `Open Settings and choose the option you need for topic ${i}: the number on the screen says what happened, compared to the day you started. Save your changes.`,
      }),
    );
    const big = new PassageIndex([
      ...filler,
      {
        id: "night-shifts",
        title: "Overnight shifts and breaks",
        language: "en",
        content: "A shift that crosses midnight counts its hours on the day it starts. An unpaid break is deducted from the total.",
      },
    ]);
    const message =
      "so one of our team did an overnight shift again that crossed midnight, she started at 10, took an unpaid break, " +
      "and the number on the screen says fewer hours than the day she worked, compared to what she expected, what happened?";
    const ranking = rankArticles({ index: big, synonyms: () => [], message, previous: [] });
    expect(ranking.articles[0]!.articleId).toBe("night-shifts");
    expect(ranking.articles[0]!.coverage).toBeLessThan(0.5);
    expect(answersQuestion(ranking)).toBe(true);
    // Two rare words of a message about something else are not enough.
    const other = rankArticles({
      index: big,
      synonyms: () => [],
      message: "what should a cook eat before an overnight flight",
      previous: [],
    });
    expect(answersQuestion(other)).toBe(false);
  });

  it("reads a follow-up with the previous visitor message", () => {
    expect(rank("and how long does that take").articles).toEqual([]);
    const followUp = rank("and how long does that take", { previous: ["can I get a refund"] });
    expect(followUp.articles[0]?.articleId).toBe("refunds");
  });
});

describe("languages", () => {
  it("detects the visitor's language, and keeps the fallback for a word that reads as several", () => {
    expect(detectLanguage("me cobraron dos veces este mes, me devuelven el dinero?")).toBe("es");
    expect(detectLanguage("j'ai oublié mon mot de passe")).toBe("fr");
    expect(detectLanguage("wie lade ich meine Mitarbeiter ein")).toBe("de");
    expect(detectLanguage("meus clientes podem pagar a fatura com pix?")).toBe("pt");
    expect(detectLanguage("cancel")).toBe("en");
    expect(detectLanguage("Hello!")).toBe("en");
    expect(detectLanguage("bonjour")).toBe("fr");
    expect(detectLanguage("SAML", "de")).toBe("de");
  });

  it("reads a short message in the help centre's language when the help centre writes its every word there", () => {
    const themes = new PassageIndex([
      ...ARTICLES,
      { id: "themes", title: "Dark mode", language: "en", content: "Turn dark mode on in Settings. The sync client follows it." },
    ]);
    // The detector reads both as French.
    expect(detectLanguage("dark mode")).toBe("fr");
    expect(messageLanguage(themes, "dark mode")).toBe("en");
    expect(rankArticles({ index: themes, synonyms: builtInSynonyms, message: "sync client", previous: [] }).language).toBe("en");
    // Words no English article writes keep the detector's reading, as does a longer message.
    expect(messageLanguage(themes, "mot de passe")).toBe("fr");
    expect(messageLanguage(themes, "j'ai oublié mon mot de passe")).toBe("fr");
    expect(messageLanguage(index, "dark mode")).toBe("fr");
  });

  it("prefers the article in the visitor's language", () => {
    expect(rank("olvidé mi contraseña").articles[0]?.articleId).toBe("password-es");
  });

  it("hands over, greets and thanks in five languages, without mistaking product questions", () => {
    for (const message of [
      "quiero hablar con una persona",
      "je voudrais parler à un conseiller",
      "Ich möchte mit einem Menschen sprechen",
      "quero falar com um atendente",
    ]) {
      expect(asksForHuman(message), message).toBe(true);
    }
    for (const message of [
      "¿cómo conecto el agente a Slack?",
      "comment ajouter une personne à l'équipe",
      "Mitarbeiter einladen",
      "como adicionar uma pessoa",
    ]) {
      expect(asksForHuman(message), message).toBe(false);
    }
    for (const message of ["hola", "Bonjour !", "guten Morgen", "bom dia", "how are you today?"])
      expect(isGreeting(message), message).toBe(true);
    for (const message of [
      "muchas gracias",
      "merci beaucoup",
      "vielen Dank",
      "obrigado pela ajuda",
      "thanks, that helped!",
      "that worked, thank you",
    ])
      expect(isThanks(message), message).toBe(true);
    for (const message of ["thanks, but that didn't help", "that worked but now sync fails", "it helped me set up sync, how do I share?"])
      expect(isThanks(message), message).toBe(false);
  });
});
