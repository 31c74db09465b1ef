// An import's time budget: the moment its time runs out, and the report's reason for the items
// left then. Real time (not the runner's `now`), since it bounds network waits.

export class Deadline {
  private readonly at: number;

  constructor(readonly budgetMs: number) {
    this.at = performance.now() + budgetMs;
  }

  /** Milliseconds left (0 once the time has run out). */
  remaining(): number {
    return Math.max(0, this.at - performance.now());
  }

  get passed(): boolean {
    return this.remaining() === 0;
  }

  /** The report's reason for a URL left unfetched. */
  get notFetched(): string {
    return `Not fetched: the import ran out of time (its limit is ${duration(this.budgetMs)}); import this URL again`;
  }

  /** The report's reason for any other item left unwritten. */
  get notImported(): string {
    return `Not imported: the import ran out of time (its limit is ${duration(this.budgetMs)}); import it again`;
  }
}

function duration(ms: number): string {
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes) && minutes > 0) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return `${Math.round(ms / 100) / 10} s`;
}
