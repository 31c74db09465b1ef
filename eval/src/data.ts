// Where the evaluation's data is: one folder per corpus under eval/corpora, each holding the
// articles (corpus/) and the labelled questions (questions/dev.json, questions/test.json), read
// with @parley/testing/eval-corpus, which the bench shares. Kestrel is the fictional product the
// set began with; the others are real products' openly licensed documentation (SOURCE.md each).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

export const corporaDir = path.join(import.meta.dirname, "..", "corpora");

export interface CorpusFolder {
  name: string;
  corpusDir: string;
  questionsDir: string;
}

export function corpusFolder(name: string): CorpusFolder {
  const dir = path.join(corporaDir, name);
  return { name, corpusDir: path.join(dir, "corpus"), questionsDir: path.join(dir, "questions") };
}

/** Every corpus with articles and questions, Kestrel first, then by name. */
export function listCorpora(): CorpusFolder[] {
  return readdirSync(corporaDir)
    .filter((name) => existsSync(path.join(corporaDir, name, "corpus", "collections.json")))
    .filter((name) => existsSync(path.join(corporaDir, name, "questions", "dev.json")))
    .sort((a, b) => (a === "kestrel" ? -1 : b === "kestrel" ? 1 : a.localeCompare(b)))
    .map(corpusFolder);
}

/** The corpus the set began with (the bench's eval scenario and the language checks use it). */
export const kestrel = corpusFolder("kestrel");
