"use client";

import { helpPaths } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isNotFound } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { AgentSettingsForm } from "./AgentSettingsForm.tsx";
import { AgentStatusBadges } from "./AgentStatusBadges.tsx";
import { ApiKeyCard } from "./ApiKeyCard.tsx";
import { BrandingForm } from "./BrandingForm.tsx";
import { LinkedSources } from "./LinkedSources.tsx";
import { EmbedSnippet, TestChat } from "./TryAgent.tsx";

export function AgentScreen({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));

  const back = (
    <p className="breadcrumb">
      <Link href="/panel/agents">← Agents</Link>
    </p>
  );
  if (agent.isPending)
    return (
      <>
        {back}
        <Loading label="Loading agent…" />
      </>
    );
  if (agent.isError) {
    return (
      <>
        {back}
        {isNotFound(agent.error) ? (
          <EmptyState>Agent not found.</EmptyState>
        ) : (
          <QueryError error={agent.error} onRetry={() => agent.refetch()} />
        )}
      </>
    );
  }

  const data = agent.data;
  const encodedId = encodeURIComponent(data.id);
  return (
    <>
      {back}
      <div className="page-heading">
        <h1>{data.name}</h1>
        <AgentStatusBadges agent={data} />
      </div>
      <p className="muted">
        Agent ID <code>{data.id}</code> · <Link href={helpPaths.home(data.id)}>Help centre</Link> ·{" "}
        <Link href={`/panel/conversations?agent=${encodedId}`}>Conversations</Link>
      </p>
      <div className="grid-2">
        <section aria-labelledby="agent-settings-heading" className="card">
          <h2 id="agent-settings-heading">Settings</h2>
          <AgentSettingsForm key={data.id} agent={data} />
        </section>
        <div className="stack">
          <ApiKeyCard agent={data} />
          <LinkedSources agentId={data.id} />
        </div>
      </div>
      <section aria-labelledby="branding-heading" className="card">
        <h2 id="branding-heading">Help centre &amp; widget</h2>
        <BrandingForm key={data.id} agent={data} />
      </section>
      <div className="grid-2">
        <TestChat agentId={data.id} />
        <EmbedSnippet agentId={data.id} allowedOrigins={data.allowedOrigins} />
      </div>
    </>
  );
}
