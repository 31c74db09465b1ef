"use client";

import Link from "next/link";
import { formatNumber } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { EmptyState } from "../ui/status.tsx";

type Activity = RouterOutputs["home"]["get"]["activity"];

/** Conversations started and agent turns per agent, today and over the last seven days (UTC). */
export function AgentActivityTable({ activity, unanswered }: { activity: Activity; unanswered: number }) {
  return (
    <section aria-labelledby="home-activity-heading" className="card">
      <h2 id="home-activity-heading">Conversations and turns</h2>
      <p className="home-figure">
        <Link href="/panel/knowledge/gaps">
          <strong>{formatNumber(unanswered)}</strong> unanswered {unanswered === 1 ? "question" : "questions"} in the last 7 days
        </Link>{" "}
        <span className="muted small">(no article answered them, or a visitor found the answer unhelpful: write one)</span>
      </p>
      {activity.length === 0 ? (
        <EmptyState>
          No agents yet. <Link href="/panel/agents">Create one</Link>.
        </EmptyState>
      ) : (
        <ScrollTable label="Activity per agent">
          <table className="home-table">
            <caption className="visually-hidden">Conversations started and agent turns per agent (UTC days)</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Conversations today</th>
                <th scope="col">Turns today</th>
                <th scope="col">Conversations, last 7 days</th>
                <th scope="col">Turns, last 7 days</th>
                <th scope="col">Unanswered, last 7 days</th>
              </tr>
            </thead>
            <tbody>
              {activity.map((row) => (
                <tr key={row.agentId}>
                  <th scope="row">
                    <Link href={`/panel/conversations?agent=${encodeURIComponent(row.agentId)}`}>{row.agentName}</Link>
                  </th>
                  <td>{formatNumber(row.today.conversations)}</td>
                  <td>{formatNumber(row.today.turns)}</td>
                  <td>{formatNumber(row.week.conversations)}</td>
                  <td>{formatNumber(row.week.turns)}</td>
                  <td>{formatNumber(row.unanswered)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  );
}
