// The LLM cites its sources with markers such as "[1]" or "[1, 3]" (llm-prompt.ts asks it to).
// Visitors see the articles as rich content instead, so the markers are taken out of the reply as
// it streams: a piece that may be the start of a marker ("[", "[1", "[1,") is held back until the
// next piece shows what it is, and so is trailing whitespace, since spaces go with a marker that
// follows them.
// Spaces before a marker go with it; a line break stays (a marker may start a line).
const MARKER = /[ \t]*\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const UNFINISHED_TAIL = /(?:[ \t]*\[[\d,\s]*|\s+)$/;

export class CitationFilter {
  /** Source numbers cited, in the order first cited. */
  readonly cited: number[] = [];
  private held = "";

  /** The text of `piece` that can be shown now, without markers. */
  push(piece: string): string {
    const text = this.strip(this.held + piece);
    const tail = UNFINISHED_TAIL.exec(text);
    const cut = tail ? tail.index : text.length;
    this.held = text.slice(cut);
    return text.slice(0, cut);
  }

  /** What was held back at the end of the reply (an unfinished "[2" is shown as it is). */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }

  private strip(text: string): string {
    return text.replace(MARKER, (_marker, numbers: string) => {
      for (const number of numbers.split(",").map((n) => Number.parseInt(n.trim(), 10))) {
        if (!this.cited.includes(number)) this.cited.push(number);
      }
      return "";
    });
  }
}
