"use client";

import { WEBHOOK_EVENT_TYPES } from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatDateTime } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { EndpointBadges } from "./EndpointBadges.tsx";
import { EndpointForm } from "./EndpointForm.tsx";
import { SecretDialog } from "./SecretDialog.tsx";

export function WebhooksScreen({ urlHint }: { urlHint: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  // A new form (empty again) after each creation.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (result) => {
        setCreated({ id: result.endpoint.id, secret: result.secret });
        setFormKey((key) => key + 1);
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
      },
    }),
  );

  return (
    <>
      <div className="page-heading">
        <h1>Webhooks</h1>
      </div>
      <p className="muted">
        Parley POSTs conversation and help-centre events to your endpoints, signed per{" "}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> and retried for about a day. Turns made through the HTTP API send
        no events (their caller already has the response); widget conversations and panel actions do.
      </p>
      <section aria-labelledby="create-webhook-heading" className="card">
        <h2 id="create-webhook-heading">Add an endpoint</h2>
        <EndpointForm
          key={formKey}
          urlHint={urlHint}
          submitLabel="Add endpoint"
          pendingLabel="Adding…"
          pending={create.isPending}
          error={create.error}
          onChange={() => {
            if (create.isSuccess) create.reset();
          }}
          onSubmit={(values) => create.mutate(values)}
        />
      </section>
      <section aria-labelledby="webhook-list-heading">
        <h2 id="webhook-list-heading">Endpoints</h2>
        <EndpointList />
      </section>
      <SecretDialog
        secret={created?.secret ?? null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) router.push(`/panel/webhooks/${encodeURIComponent(id)}`);
        }}
      />
    </>
  );
}

function EndpointList() {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  if (endpoints.isPending) return <Loading label="Loading endpoints…" />;
  if (endpoints.isError) return <QueryError error={endpoints.error} onRetry={() => endpoints.refetch()} />;
  if (endpoints.data.length === 0) return <EmptyState>No endpoints yet. Add one above to receive events.</EmptyState>;
  return (
    <ul className="item-list">
      {endpoints.data.map((endpoint) => (
        <li key={endpoint.id} className="item">
          <div className="item-main">
            <Link href={`/panel/webhooks/${encodeURIComponent(endpoint.id)}`} className="item-title mono">
              {endpoint.url}
            </Link>
            <EndpointBadges endpoint={endpoint} />
          </div>
          {endpoint.description ? <p className="item-meta">{endpoint.description}</p> : null}
          <p className="item-meta muted">
            {endpoint.eventTypes.length} of {WEBHOOK_EVENT_TYPES.length} event types ·{" "}
            {endpoint.allAgents ? "all agents" : `${endpoint.agentIds.length} agent(s)`} · added {formatDateTime(endpoint.createdAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}
