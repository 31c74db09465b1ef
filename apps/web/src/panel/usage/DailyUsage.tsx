"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { formatNumber } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { SelectField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { DailyChart } from "./DailyChart.tsx";

const ranges = [7, 30, 90] as const;

export function DailyUsage() {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agents.list.queryOptions());
  const [agentId, setAgentId] = useState("");
  const [days, setDays] = useState<(typeof ranges)[number]>(30);
  const daily = useQuery({ ...trpc.usage.daily.queryOptions({ agentId: agentId || undefined, days }), placeholderData: keepPreviousData });

  let body: ReactNode;
  if (daily.isPending) body = <Loading label="Loading daily usage…" />;
  else if (daily.isError) body = <QueryError error={daily.error} onRetry={() => daily.refetch()} />;
  else if (daily.data.every((day) => day.conversations === 0 && day.tokens === 0))
    body = <EmptyState>No conversations in this period.</EmptyState>;
  else
    body = (
      <>
        <DailyChart data={daily.data} />
        <details className="chart-table">
          <summary>Show the numbers as a table</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Conversations</th>
                <th scope="col">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {daily.data.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{day.date}</th>
                  <td>{formatNumber(day.conversations)}</td>
                  <td>{formatNumber(day.tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </>
    );

  return (
    <section aria-labelledby="daily-usage-heading" className="card">
      <h2 id="daily-usage-heading">Daily conversations and tokens</h2>
      <PanelForm className="form-inline toolbar" aria-label="Chart options" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Agent" value={agentId} onChange={(event) => setAgentId(event.target.value)}>
          <option value="">All agents</option>
          {(agents.data ?? []).map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Period"
          value={String(days)}
          onChange={(event) => setDays(Number(event.target.value) as (typeof ranges)[number])}
        >
          {ranges.map((range) => (
            <option key={range} value={range}>
              Last {range} days
            </option>
          ))}
        </SelectField>
      </PanelForm>
      {body}
    </section>
  );
}
