"use client";

// Feedback next to an action: the error of the last attempt (announced at once) or a short
// success note (announced politely). The live regions stay mounted so changes are announced.
import type { ReactNode } from "react";
import { errorMessage } from "../errors.ts";

export function ActionStatus({ error, success }: { error?: unknown; success?: ReactNode }) {
  const message = error ? errorMessage(error) : "";
  return (
    <div className="action-status">
      <p role="alert" className="status-error">
        {message}
      </p>
      <p role="status" className="status-success">
        {message ? null : success}
      </p>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="empty-state">{children}</div>;
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="muted" role="status">
      {label}
    </p>
  );
}

/** The error of a failed query, with a retry button. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="query-error" role="alert">
      <p>{errorMessage(error)}</p>
      {onRetry ? (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Badge({ tone = "neutral", children }: { tone?: "neutral" | "good" | "warn" | "bad"; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
