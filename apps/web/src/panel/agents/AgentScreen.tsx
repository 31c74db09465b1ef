"use client";

import { helpPaths } from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { isNotFound } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { DeleteCard } from "../ui/DeleteCard.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { AgentSettingsForm } from "./AgentSettingsForm.tsx";
import { AgentStatusBadges } from "./AgentStatusBadges.tsx";
import { ApiKeyCard } from "./ApiKeyCard.tsx";
import { BrandingForm } from "./BrandingForm.tsx";
import { LinkedSources } from "./LinkedSources.tsx";
import { EmbedSnippet, TestChat } from "./TryAgent.tsx";

/** `mayDelete`: the person may delete the agent (owners). */
export function AgentScreen({ agentId, mayDelete }: { agentId: string; mayDelete: boolean }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.agents.delete.mutationOptions({
      onSuccess: async () => {
        router.push("/panel/agents");
        await queryClient.invalidateQueries(trpc.agents.list.queryFilter());
      },
    }),
  );

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
      {mayDelete ? (
        <DeleteCard
          thing="agent"
          consequences={
            <p>
              Its API key stops working, its help centre answers 404, and its conversations are deleted with their messages, tracking events
              and usage (stored webhook events about them lose their data). Its sources and articles stay.
            </p>
          }
          pending={remove.isPending}
          error={remove.error}
          onDelete={() => remove.mutate({ id: data.id })}
          onCancel={() => remove.reset()}
        />
      ) : null}
    </>
  );
}
