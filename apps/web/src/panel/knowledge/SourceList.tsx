"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../trpc.ts";
import { Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";

export function SourceList() {
  const trpc = useTRPC();
  const sources = useQuery(trpc.sources.list.queryOptions());
  const agents = useQuery(trpc.agents.list.queryOptions());

  if (sources.isPending) return <Loading label="Loading sources…" />;
  if (sources.isError) return <QueryError error={sources.error} onRetry={() => sources.refetch()} />;
  if (sources.data.length === 0) return <EmptyState>No sources yet — create one above.</EmptyState>;

  const agentName = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
  return (
    <ul className="item-list">
      {sources.data.map((source) => (
        <li key={source.id} className="item">
          <div className="item-main">
            <Link href={`/panel/knowledge/sources/${encodeURIComponent(source.id)}`} className="item-title">
              {source.name}
            </Link>
            {source.active ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Inactive</Badge>}
          </div>
          <p className="item-meta muted">
            {source.articleCount} {source.articleCount === 1 ? "article" : "articles"}, {source.publishedCount} published ·{" "}
            {source.agentIds.length === 0
              ? "not linked to any agent"
              : `linked to ${source.agentIds.map((id) => agentName.get(id) ?? id).join(", ")}`}
          </p>
        </li>
      ))}
    </ul>
  );
}
