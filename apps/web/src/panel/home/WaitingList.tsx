"use client";

import { visitorIdentity } from "@parley/core/browser";
import Link from "next/link";
import { formatWaited } from "../format.ts";
import { useNow } from "../inbox/use-now.ts";
import type { RouterOutputs } from "../trpc.ts";
import { EmptyState } from "../ui/status.tsx";

type Waiting = RouterOutputs["home"]["get"]["waiting"];

export const WAITING_INBOX = "/panel/conversations?status=escalated&assignee=unassigned";

/** Escalations nobody has taken, in the inbox's queue order (the longest wait first), each linking to its conversation. */
export function WaitingList({ waiting }: { waiting: Waiting }) {
  const now = useNow();
  return (
    <section aria-labelledby="home-waiting-heading" className="card">
      <h2 id="home-waiting-heading">Waiting for a person ({waiting.count})</h2>
      {waiting.count === 0 ? (
        <EmptyState>No escalation is waiting: every conversation that asked for a person has one.</EmptyState>
      ) : (
        <>
          <ul className="home-list">
            {waiting.oldest.map((item) => (
              <li key={item.conversationId}>
                <Link href={`/panel/conversations/${encodeURIComponent(item.conversationId)}`}>
                  {visitorIdentity({ ...item, id: item.conversationId })}
                </Link>{" "}
                <span className="muted">
                  · {item.agentName} · waiting {formatWaited(item.waitingSince ?? item.escalatedAt, now)}
                </span>
              </li>
            ))}
          </ul>
          {waiting.count > waiting.oldest.length ? (
            <p>
              <Link href={WAITING_INBOX}>All {waiting.count} waiting escalations</Link>
            </p>
          ) : (
            <p>
              <Link href={WAITING_INBOX}>Open them in the inbox</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
