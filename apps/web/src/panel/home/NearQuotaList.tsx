"use client";

import Link from "next/link";
import { formatNumber } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";
import { EmptyState } from "../ui/status.tsx";

type NearQuota = RouterOutputs["home"]["get"]["nearQuota"];

const MEASURES = { conversations: "conversations", tokens: "tokens", turns: "turns (usage limit)" } as const;

/** Agents at 80 % or more of a monthly limit: past 100 % their key's requests are refused. */
export function NearQuotaList({ nearQuota }: { nearQuota: NearQuota }) {
  return (
    <section aria-labelledby="home-quota-heading" className="card">
      <h2 id="home-quota-heading">Close to a monthly limit</h2>
      {nearQuota.length === 0 ? (
        <EmptyState>
          No agent has used 80 % of a monthly limit. <Link href="/panel/usage">See usage</Link>.
        </EmptyState>
      ) : (
        <>
          <ul className="home-list">
            {nearQuota.map((entry) => (
              <li key={`${entry.agentId}-${entry.measure}`}>
                <Link href={`/panel/agents/${encodeURIComponent(entry.agentId)}`}>{entry.agentName}</Link>: {formatNumber(entry.used)} of{" "}
                {formatNumber(entry.limit)} {MEASURES[entry.measure]} this month
                {entry.used >= entry.limit ? <strong> (limit reached: its requests are refused)</strong> : null}
              </li>
            ))}
          </ul>
          <p>
            <Link href="/panel/usage">Usage of every agent</Link>
          </p>
        </>
      )}
    </section>
  );
}
