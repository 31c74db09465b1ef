// Token counting with a real tokenizer (gpt-tokenizer, o200k_base: the encoding of current OpenAI
// models), for engines that have no provider to report usage.
import { countTokens as countEncodedTokens } from "gpt-tokenizer";

// Text from visitors may contain strings such as "<|endoftext|>"; count them as plain text instead
// of letting the tokenizer reject them as special tokens.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Number of tokens of `text` (0 for an empty string). */
export function countTokens(text: string): number {
  return text === "" ? 0 : countEncodedTokens(text, PLAIN_TEXT);
}
