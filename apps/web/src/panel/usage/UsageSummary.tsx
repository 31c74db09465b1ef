"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { UsageMeter } from "./UsageMeter.tsx";

/** "2026-11" -> "November 2026" (months are UTC calendar months). */
function monthName(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number);
  if (!year || !monthNumber) return month;
  return new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, monthNumber - 1, 1)),
  );
}

export function UsageSummary() {
  const trpc = useTRPC();
  const summary = useQuery(trpc.usage.summary.queryOptions());

  let body: ReactNode;
  if (summary.isPending) body = <Loading label="Loading usage…" />;
  else if (summary.isError) body = <QueryError error={summary.error} onRetry={() => summary.refetch()} />;
  else if (summary.data.length === 0)
    body = (
      <EmptyState>
        No agents yet — <Link href="/panel/agents">create one</Link> to see its usage here.
      </EmptyState>
    );
  else
    body = (
      <ul className="usage-grid">
        {summary.data.map((row) => (
          <li key={row.agentId} className="card">
            <h3>
              <Link href={`/panel/agents/${encodeURIComponent(row.agentId)}`}>{row.agentName}</Link>
            </h3>
            <UsageMeter label="Conversations" used={row.conversations} limit={row.monthlyConversationLimit} />
            <UsageMeter label="Tokens" used={row.tokens} limit={row.monthlyTokenLimit} />
            <UsageMeter label="Turns (usage limit)" used={row.turns} limit={row.usageLimit} />
            {/* Voice minutes: heard seconds rounded up; shown once voice is on, used or limited. */}
            {row.voiceEnabled || row.voiceMinutes > 0 || row.monthlyVoiceMinutesLimit !== null ? (
              <UsageMeter
                label="Voice minutes"
                used={row.voiceMinutes}
                limit={row.monthlyVoiceMinutesLimit}
                reached="visitors cannot talk (text chat goes on)"
              />
            ) : null}
          </li>
        ))}
      </ul>
    );

  const month = summary.data?.[0]?.month;
  return (
    <section aria-labelledby="usage-month-heading">
      <h2 id="usage-month-heading">This month{month ? ` (${monthName(month)}, UTC)` : ""}</h2>
      {body}
    </section>
  );
}
