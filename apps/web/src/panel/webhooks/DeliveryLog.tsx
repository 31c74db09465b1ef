"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField } from "../ui/fields.tsx";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { ActionStatus, Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type Delivery = RouterOutputs["webhooks"]["deliveries"]["items"][number];
type StatusFilter = "" | "pending" | "succeeded" | "failed";

const PAGE_SIZE = 25;

function DeliveryStatus({ delivery }: { delivery: Delivery }) {
  if (delivery.status === "succeeded") return <Badge tone="good">Delivered</Badge>;
  if (delivery.status === "failed") return <Badge tone="bad">Failed</Badge>;
  if (delivery.inProgress) return <Badge tone="neutral">Sending</Badge>;
  return delivery.attempts === 0 ? <Badge tone="neutral">Queued</Badge> : <Badge tone="warn">Retrying</Badge>;
}

function responseText(delivery: { lastStatus: number | null; lastError: string | null; attempts: number }): string {
  if (delivery.lastStatus !== null) return `HTTP ${delivery.lastStatus}`;
  if (delivery.lastError) return delivery.lastError;
  return delivery.attempts === 0 ? "—" : "No response";
}

/** The endpoint's deliveries, newest first: event, status, attempts, response, latency, next retry. */
export function DeliveryLog({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<StatusFilter>("");
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { endpointId, status: status || undefined, limit: PAGE_SIZE },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, refetchInterval: 5_000 },
    ),
  );

  const filter = (
    <div className="toolbar">
      <SelectField label="Status" value={status} onChange={(event) => setStatus(event.target.value as StatusFilter)}>
        <option value="">All</option>
        <option value="pending">Pending</option>
        <option value="succeeded">Delivered</option>
        <option value="failed">Failed</option>
      </SelectField>
    </div>
  );
  if (deliveries.isPending)
    return (
      <>
        {filter}
        <Loading label="Loading deliveries…" />
      </>
    );
  if (deliveries.isError)
    return (
      <>
        {filter}
        <QueryError error={deliveries.error} onRetry={() => deliveries.refetch()} />
      </>
    );
  const items = deliveries.data.pages.flatMap((page) => page.items);
  return (
    <>
      {filter}
      {items.length === 0 ? (
        <EmptyState>{status ? "No deliveries with this status." : "No deliveries yet. Send a test event to try the endpoint."}</EmptyState>
      ) : (
        <ScrollTable label="Deliveries" className="webhook-table-wrap">
          <table className="webhook-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Response</th>
                <th scope="col">Latency</th>
                <th scope="col">Next retry</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((delivery) => (
                <Fragment key={delivery.id}>
                  <tr>
                    <td>
                      <code>{delivery.eventType}</code>
                      <div className="muted small">{formatDateTime(delivery.createdAt)}</div>
                    </td>
                    <td>
                      <DeliveryStatus delivery={delivery} />
                    </td>
                    <td>{delivery.attempts}</td>
                    <td className="webhook-response">{responseText(delivery)}</td>
                    <td>{delivery.lastLatencyMs === null ? "—" : `${delivery.lastLatencyMs} ms`}</td>
                    <td>{delivery.status === "pending" && delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : "—"}</td>
                    <td>
                      <div className="button-row">
                        <button
                          type="button"
                          className="btn btn-secondary"
                          aria-expanded={open === delivery.id}
                          onClick={() => setOpen(open === delivery.id ? null : delivery.id)}
                        >
                          Details
                        </button>
                        {delivery.status !== "succeeded" ? <RetryButton delivery={delivery} disabled={!enabled} /> : null}
                      </div>
                    </td>
                  </tr>
                  {open === delivery.id ? (
                    <tr>
                      <td colSpan={7}>
                        <DeliveryDetail id={delivery.id} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {deliveries.hasNextPage ? (
        <ActionButton onClick={() => deliveries.fetchNextPage()} pending={deliveries.isFetchingNextPage} pendingLabel="Loading…">
          Load more
        </ActionButton>
      ) : null}
    </>
  );
}

function RetryButton({ delivery, disabled }: { delivery: Delivery; disabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.webhooks.retryDelivery.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.webhooks.deliveries.infiniteQueryFilter()),
          queryClient.invalidateQueries(trpc.webhooks.delivery.queryFilter({ id: delivery.id })),
        ]),
    }),
  );
  return (
    <>
      <ActionButton
        disabled={disabled || delivery.inProgress}
        title={disabled ? "Enable the endpoint first" : undefined}
        pending={retry.isPending}
        pendingLabel="Retrying…"
        onClick={() => retry.mutate({ id: delivery.id })}
      >
        Retry now
      </ActionButton>
      <ActionStatus error={retry.error} />
    </>
  );
}

function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.webhooks.delivery.queryOptions({ id }));
  if (detail.isPending) return <Loading label="Loading attempts…" />;
  if (detail.isError) return <QueryError error={detail.error} onRetry={() => detail.refetch()} />;
  const data = detail.data;
  return (
    <div className="webhook-detail">
      <p className="small">
        <span className="muted">webhook-id</span> <code>{data.eventId}</code>
      </p>
      {data.attemptLog.length === 0 ? (
        <p className="muted small">No attempt yet.</p>
      ) : (
        <ol className="webhook-attempts">
          {data.attemptLog.map((attempt) => (
            <li key={attempt.number}>
              Attempt {attempt.number}, {formatDateTime(attempt.startedAt)}:{" "}
              {responseText({ ...attempt, lastStatus: attempt.status, lastError: attempt.error, attempts: 1 })} in {attempt.latencyMs} ms
              {attempt.responseBody ? <pre className="tool-args">{attempt.responseBody}</pre> : null}
            </li>
          ))}
        </ol>
      )}
      <details>
        <summary>Payload</summary>
        <pre className="tool-args">{formatPayload(data.payload)}</pre>
      </details>
    </div>
  );
}

function formatPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}
