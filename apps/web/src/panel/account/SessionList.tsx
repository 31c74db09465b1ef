"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatDateTime } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ActionStatus, Badge, Loading, QueryError } from "../ui/status.tsx";

/** One's live sessions (browsers signed in), each with a button to end it. */
export function SessionList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.account.sessions.queryOptions());
  const end = useMutation(
    trpc.account.endSession.mutationOptions({
      onSuccess: (_result, input) => {
        // Ending the current session signs this browser out.
        if (sessions.data?.find((session) => session.id === input.id)?.current) window.location.assign("/signin");
      },
      onSettled: () => queryClient.invalidateQueries(trpc.account.sessions.queryFilter()),
    }),
  );

  if (sessions.isPending) return <Loading />;
  if (sessions.isError) return <QueryError error={sessions.error} onRetry={() => sessions.refetch()} />;
  return (
    <>
      <ul className="item-list" aria-label="Your sessions">
        {sessions.data.map((session) => (
          <li key={session.id} className="item" data-testid="session">
            <div className="item-main">
              <span className="item-title">{session.userAgent || "Unknown browser"}</span>
              {session.current ? <Badge tone="good">This browser</Badge> : null}
            </div>
            <p className="item-meta muted">
              Signed in {formatDateTime(session.createdAt)} · last seen {formatDateTime(session.lastSeenAt)} · IP {session.ip ?? "unknown"}
            </p>
            <div className="person-actions">
              <ActionButton
                variant="danger"
                pending={end.isPending && end.variables?.id === session.id}
                pendingLabel="Ending…"
                onClick={() => end.mutate({ id: session.id })}
              >
                {session.current ? "Sign out here" : "End session"}
              </ActionButton>
            </div>
          </li>
        ))}
      </ul>
      <ActionStatus error={end.error} />
    </>
  );
}
