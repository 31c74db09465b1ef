// Where the evaluation's data is: the corpus (eval/corpus) and the labelled questions
// (eval/questions), read with @parley/testing/eval-corpus, which the bench shares.
import path from "node:path";

export const corpusDir = path.join(import.meta.dirname, "..", "corpus");
export const questionsDir = path.join(import.meta.dirname, "..", "questions");
