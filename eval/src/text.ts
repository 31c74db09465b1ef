// The one tokenizer of the evaluation: lower case, accents removed, words of letters and digits.
// Markdown markup, punctuation and apostrophes fall away, so "**Forgot password?**" in an article
// and "forgot password" in a label or a reply read the same.

export function tokens(text: string): string[] {
  return (
    text
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Whether `needle`'s tokens occur in `haystack`'s tokens as one contiguous run. */
export function containsTokens(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return true;
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

/** Distinct pairs of consecutive tokens ("we always refund" -> "we always", "always refund"). */
export function bigrams(words: string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) pairs.add(`${words[i]} ${words[i + 1]}`);
  return pairs;
}
