"use client";

import { isWebhookEventType } from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { isNotFound } from "../errors.ts";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { DeliveryLog } from "./DeliveryLog.tsx";
import { EndpointBadges } from "./EndpointBadges.tsx";
import { EndpointForm } from "./EndpointForm.tsx";
import { SecretDialog } from "./SecretDialog.tsx";

type Endpoint = RouterOutputs["webhooks"]["get"];

export function EndpointScreen({ endpointId, urlHint }: { endpointId: string; urlHint: string }) {
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id: endpointId }));
  const back = (
    <p className="breadcrumb">
      <Link href="/panel/webhooks">← Webhooks</Link>
    </p>
  );
  if (endpoint.isPending)
    return (
      <>
        {back}
        <Loading label="Loading endpoint…" />
      </>
    );
  if (endpoint.isError)
    return (
      <>
        {back}
        {isNotFound(endpoint.error) ? (
          <EmptyState>Webhook endpoint not found.</EmptyState>
        ) : (
          <QueryError error={endpoint.error} onRetry={() => endpoint.refetch()} />
        )}
      </>
    );

  const data = endpoint.data;
  return (
    <>
      {back}
      <div className="page-heading">
        <h1 className="webhook-url">{data.url}</h1>
        <EndpointBadges endpoint={data} />
      </div>
      <EndpointNotices endpoint={data} />
      <div className="grid-2">
        <section aria-labelledby="webhook-settings-heading" className="card">
          <h2 id="webhook-settings-heading">Settings</h2>
          <EditEndpoint key={data.id} endpoint={data} urlHint={urlHint} />
        </section>
        <EndpointActions endpoint={data} />
      </div>
      <section aria-labelledby="delivery-log-heading">
        <h2 id="delivery-log-heading">Delivery log</h2>
        <DeliveryLog endpointId={data.id} enabled={data.enabled} />
      </section>
    </>
  );
}

function EndpointNotices({ endpoint }: { endpoint: Endpoint }) {
  return (
    <>
      {endpoint.disabledReason === "gone" ? (
        <p className="notice notice-warn">
          Disabled automatically on {formatDateTime(endpoint.disabledAt)}: the endpoint answered <code>410 Gone</code>. Enable it again once
          it accepts events.
        </p>
      ) : null}
      {endpoint.disabledReason === "failing" ? (
        <p className="notice notice-warn">
          Disabled automatically on {formatDateTime(endpoint.disabledAt)} after failing for 3 days. Fix the receiver, then enable it:
          pending deliveries resume.
        </p>
      ) : null}
      {endpoint.enabled && endpoint.failingSince ? (
        <p className="notice notice-warn">
          Failing since {formatDateTime(endpoint.failingSince)}: deliveries are being retried. If it keeps failing for 3 days it is
          disabled.
        </p>
      ) : null}
      {!endpoint.enabled && endpoint.disabledReason === null ? (
        <p className="notice">Disabled: no events are queued or sent until you enable it.</p>
      ) : null}
      {endpoint.previousSecretValidUntil ? (
        <p className="notice">
          Secret rolled: the previous secret also signs every delivery until {formatDateTime(endpoint.previousSecretValidUntil)}.
        </p>
      ) : null}
    </>
  );
}

function EditEndpoint({ endpoint, urlHint }: { endpoint: Endpoint; urlHint: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async (updated) => {
        queryClient.setQueryData(trpc.webhooks.get.queryKey({ id: endpoint.id }), updated);
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
      },
    }),
  );
  return (
    <EndpointForm
      urlHint={urlHint}
      initial={{
        url: endpoint.url,
        description: endpoint.description,
        allAgents: endpoint.allAgents,
        agentIds: endpoint.agentIds,
        eventTypes: endpoint.eventTypes.filter(isWebhookEventType),
      }}
      submitLabel="Save changes"
      pendingLabel="Saving…"
      pending={update.isPending}
      error={update.error}
      success={update.isSuccess ? "Endpoint saved." : undefined}
      onChange={() => {
        if (update.isSuccess || update.isError) update.reset();
      }}
      onSubmit={(values) => update.mutate({ id: endpoint.id, ...values })}
    />
  );
}

function EndpointActions({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [confirming, setConfirming] = useState<"roll" | "delete" | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const rollRef = useRef<HTMLButtonElement>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.webhooks.get.queryFilter({ id: endpoint.id })),
      queryClient.invalidateQueries(trpc.webhooks.list.queryFilter()),
      queryClient.invalidateQueries(trpc.webhooks.deliveries.infiniteQueryFilter()),
    ]);
  const setEnabled = useMutation(trpc.webhooks.setEnabled.mutationOptions({ onSuccess: refresh }));
  const sendTest = useMutation(trpc.webhooks.sendTest.mutationOptions({ onSuccess: refresh }));
  const roll = useMutation(
    trpc.webhooks.rollSecret.mutationOptions({
      onSuccess: async (result) => {
        setConfirming(null);
        setSecret(result.secret);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
        router.push("/panel/webhooks");
      },
    }),
  );
  const busy = setEnabled.isPending || sendTest.isPending;

  return (
    <section aria-labelledby="webhook-actions-heading" className="card">
      <h2 id="webhook-actions-heading">Actions</h2>
      <dl className="details">
        <div>
          <dt>Endpoint ID</dt>
          <dd>
            <code>{endpoint.id}</code>
          </dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>{formatDateTime(endpoint.createdAt)}</dd>
        </div>
      </dl>
      <div className="button-row webhook-actions">
        <ActionButton
          variant={endpoint.enabled ? "secondary" : "primary"}
          disabled={busy}
          pending={setEnabled.isPending}
          pendingLabel={endpoint.enabled ? "Disabling…" : "Enabling…"}
          onClick={() => {
            sendTest.reset();
            setEnabled.mutate({ id: endpoint.id, enabled: !endpoint.enabled });
          }}
        >
          {endpoint.enabled ? "Disable" : "Enable"}
        </ActionButton>
        <ActionButton
          disabled={busy || !endpoint.enabled}
          pending={sendTest.isPending}
          pendingLabel="Sending…"
          onClick={() => {
            setEnabled.reset();
            sendTest.mutate({ id: endpoint.id });
          }}
        >
          Send test event
        </ActionButton>
        <ActionButton ref={rollRef} disabled={busy} onClick={() => setConfirming("roll")}>
          Roll secret
        </ActionButton>
        <ActionButton variant="danger" disabled={busy} onClick={() => setConfirming("delete")}>
          Delete
        </ActionButton>
      </div>
      <ActionStatus
        error={setEnabled.error ?? sendTest.error}
        success={sendTest.isSuccess ? "Test event queued: it appears in the delivery log below." : undefined}
      />
      <ConfirmDialog
        open={confirming === "roll"}
        title="Roll the signing secret?"
        confirmLabel="Yes, roll secret"
        pendingLabel="Rolling…"
        variant="primary"
        pending={roll.isPending}
        error={roll.error}
        onConfirm={() => roll.mutate({ id: endpoint.id })}
        onCancel={() => {
          setConfirming(null);
          roll.reset();
        }}
        finalFocusRef={rollRef}
      >
        <p>
          A new secret is generated and shown once. The current secret <strong>keeps signing for 24 hours</strong> (each delivery carries
          both signatures), so you can update your receiver without missing events.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "delete"}
        title="Delete this endpoint?"
        confirmLabel="Yes, delete endpoint"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate({ id: endpoint.id })}
        onCancel={() => {
          setConfirming(null);
          remove.reset();
        }}
      >
        <p>
          Events stop going to <code>{endpoint.url}</code> at once, and its delivery log is deleted. Pending retries are dropped.
        </p>
      </ConfirmDialog>
      <SecretDialog secret={secret} rolled onClose={() => setSecret(null)} finalFocusRef={rollRef} />
    </section>
  );
}
