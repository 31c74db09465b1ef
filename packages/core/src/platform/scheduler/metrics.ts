// What one instance remembers of each task's runs, for the health route. Held in memory: each
// instance reports its own runs (a cluster-leased task's last run anywhere comes from its lease).

export interface TaskMetrics {
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastDurationMs: number | null;
  lastOutcome: "ok" | "error" | null;
  /** A short code of the last failure (never its message or stack, which may quote a secret). */
  lastErrorCode: string | null;
  /** Runs started on this instance: a lease held by another instance is no run; a claim that fails (the database down) is a failed run. */
  runs: number;
  /** Runs that failed. */
  failures: number;
  /** Set while a run is in progress. */
  runningSince: Date | null;
}

export function emptyMetrics(): TaskMetrics {
  return {
    lastStartedAt: null,
    lastFinishedAt: null,
    lastDurationMs: null,
    lastOutcome: null,
    lastErrorCode: null,
    runs: 0,
    failures: 0,
    runningSince: null,
  };
}

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/**
 * A failure as a short code: the error's own code when it has one (AppError's, Prisma's P2002,
 * PostgreSQL's 28P01, Node's ECONNREFUSED), else its class name (TypeError), else ERROR.
 */
export function errorCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "ERROR";
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (typeof code === "string" && CODE.test(code)) return code;
  if (typeof name === "string" && name !== "Error" && CODE.test(name)) return name;
  return "ERROR";
}
