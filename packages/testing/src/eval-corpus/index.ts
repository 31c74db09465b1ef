// The evaluation's corpus and labelled questions (eval/corpora/<name>/corpus, .../questions), read and loaded into
// a database the same way by `npm run eval` and the bench's eval scenario.
export * from "./corpus.ts";
export * from "./load.ts";
export * from "./questions.ts";
