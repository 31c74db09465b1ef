"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatDate } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { AgentStatusBadges } from "./AgentStatusBadges.tsx";

export function AgentList() {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agents.list.queryOptions());

  if (agents.isPending) return <Loading label="Loading agents…" />;
  if (agents.isError) return <QueryError error={agents.error} onRetry={() => agents.refetch()} />;
  if (agents.data.length === 0) return <EmptyState>No agents yet — create one above.</EmptyState>;

  return (
    <ul className="item-list">
      {agents.data.map((agent) => (
        <li key={agent.id} className="item">
          <div className="item-main">
            <Link href={`/panel/agents/${encodeURIComponent(agent.id)}`} className="item-title">
              {agent.name}
            </Link>
            <code className="item-id">{agent.id}</code>
          </div>
          <AgentStatusBadges agent={agent} />
          <p className="item-meta muted">
            {agent.engine === "llm" ? "LLM engine" : "Knowledge engine"}
            {agent.keyConfigured && agent.keyLast4 ? ` · key •••• ${agent.keyLast4}` : ""} · created {formatDate(agent.createdAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}
