"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useState } from "react";
import { useTRPC } from "../trpc.ts";
import { CheckboxField } from "../ui/fields.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";

/** The knowledge sources this agent answers from (and shows in its help centre). */
export function LinkedSources({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sources = useQuery(trpc.sources.list.queryOptions());
  // The box shows the requested state at once (set in the same event, so React keeps it checked)
  // until the save and the refetch of the list are done; on failure it falls back to the stored state.
  const [requested, setRequested] = useState<{ sourceId: string; linked: boolean } | null>(null);
  const setAgents = useMutation(
    trpc.sources.setAgents.mutationOptions({
      onSettled: () => setRequested(null),
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
          queryClient.invalidateQueries(trpc.agents.get.queryFilter({ id: agentId })),
          queryClient.invalidateQueries(trpc.agents.knowledgeSearch.queryFilter({ id: agentId })),
        ]),
    }),
  );

  let body: ReactNode;
  if (sources.isPending) body = <Loading label="Loading sources…" />;
  else if (sources.isError) body = <QueryError error={sources.error} onRetry={() => sources.refetch()} />;
  else if (sources.data.length === 0)
    body = (
      <EmptyState>
        No sources yet — <Link href="/panel/knowledge">create one in the knowledge base</Link>.
      </EmptyState>
    );
  else
    body = (
      <fieldset aria-busy={setAgents.isPending || undefined}>
        <legend className="visually-hidden">Sources linked to this agent</legend>
        {sources.data.map((source) => {
          const saving = requested?.sourceId === source.id;
          const linked = saving ? requested.linked : source.agentIds.includes(agentId);
          return (
            <CheckboxField
              key={source.id}
              label={
                <>
                  {source.name}{" "}
                  <span className="muted">
                    ({source.publishedCount} published{source.active ? "" : ", source inactive"})
                  </span>
                  {saving ? <span className="muted"> Saving…</span> : null}
                </>
              }
              checked={linked}
              onChange={() => {
                // One save at a time (not `disabled`: that would drop keyboard focus from the box).
                if (setAgents.isPending) return;
                setRequested({ sourceId: source.id, linked: !linked });
                setAgents.mutate({
                  id: source.id,
                  agentIds: linked ? source.agentIds.filter((id) => id !== agentId) : [...source.agentIds, agentId],
                });
              }}
            />
          );
        })}
      </fieldset>
    );

  return (
    <section aria-labelledby="linked-sources-heading" className="card">
      <h2 id="linked-sources-heading">Linked sources</h2>
      <p className="muted small">The agent answers from, and its help centre shows, published articles of these sources.</p>
      {body}
      <KnowledgeSearchNotice agentId={agentId} />
      <ActionStatus error={setAgents.error} success={setAgents.isSuccess ? "Sources updated." : undefined} />
    </section>
  );
}

/** Megabytes, one decimal. */
function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Says so when the agent's articles are too large to search in memory (it answers from the database search). */
function KnowledgeSearchNotice({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const status = useQuery(trpc.agents.knowledgeSearch.queryOptions({ id: agentId }));
  if (status.data?.search !== "database") return null;
  return (
    <p className="notice notice-warn" role="status">
      These sources hold {megabytes(status.data.textBytes)} of article text, more than the {megabytes(status.data.budgetBytes)} an instance
      keeps in memory for knowledge search. The agent answers from the database search instead, which ranks answers less precisely: unlink
      or unpublish sources it does not need to bring it back.
    </p>
  );
}
