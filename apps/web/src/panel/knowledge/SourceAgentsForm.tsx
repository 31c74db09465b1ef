"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useCan } from "../access/permissions.tsx";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { CheckboxField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type Source = RouterOutputs["sources"]["list"][number];

export function SourceAgentsForm({ source }: { source: Source }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agents = useQuery(trpc.agents.list.queryOptions());
  const can = useCan();
  const [selected, setSelected] = useState<string[]>(source.agentIds);
  const save = useMutation(
    trpc.sources.setAgents.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
          queryClient.invalidateQueries(trpc.agents.get.queryFilter()),
        ]),
    }),
  );

  if (agents.isPending) return <Loading label="Loading agents…" />;
  if (agents.isError) return <QueryError error={agents.error} onRetry={() => agents.refetch()} />;
  if (agents.data.length === 0) {
    return (
      <EmptyState>
        No agents yet
        {can("agents.write") ? (
          <>
            {" "}
            — <Link href="/panel/agents">create one</Link>
          </>
        ) : null}
        .
      </EmptyState>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ id: source.id, agentIds: selected });
  }

  return (
    <PanelForm onSubmit={submit} className="form">
      <fieldset>
        <legend className="visually-hidden">Agents linked to {source.name}</legend>
        {agents.data.map((agent) => (
          <CheckboxField
            key={agent.id}
            label={agent.name}
            checked={selected.includes(agent.id)}
            onChange={(event) => {
              if (save.isSuccess) save.reset();
              setSelected((current) => (event.target.checked ? [...current, agent.id] : current.filter((id) => id !== agent.id)));
            }}
          />
        ))}
      </fieldset>
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={save.isPending}>
          Save linked agents
        </ActionButton>
      </div>
      <ActionStatus error={save.error} success={save.isSuccess ? "Linked agents saved." : undefined} />
    </PanelForm>
  );
}
