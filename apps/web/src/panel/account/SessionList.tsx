"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatDateTime, formatWaited } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ActionStatus, Badge, Loading, QueryError } from "../ui/status.tsx";

/** "2 min ago", "just now": when the session was last used. */
function lastUsed(value: string | Date): string {
  const waited = formatWaited(value);
  return waited === "just now" ? waited : `${waited} ago`;
}

/**
 * One's live sessions, each named by browser and place ("Chrome on Linux, 127.0.0.1, 2 min ago"),
 * this browser's marked, each with a button to end it, and "Sign out everywhere else".
 */
export function SessionList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.account.sessions.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.account.sessions.queryFilter());
  const end = useMutation(
    trpc.account.endSession.mutationOptions({
      onSuccess: (_result, input) => {
        // Ending the current session signs this browser out.
        if (sessions.data?.find((session) => session.id === input.id)?.current) window.location.assign("/signin");
      },
      onSettled: refresh,
    }),
  );
  const endOthers = useMutation(trpc.account.endOtherSessions.mutationOptions({ onSettled: refresh }));

  if (sessions.isPending) return <Loading />;
  if (sessions.isError) return <QueryError error={sessions.error} onRetry={() => sessions.refetch()} />;
  const others = sessions.data.filter((session) => !session.current).length;
  const ended = endOthers.data?.endedSessions ?? 0;
  return (
    <>
      <ul className="item-list" aria-label="Your sessions">
        {sessions.data.map((session) => (
          <li key={session.id} className="item" data-testid="session">
            <div className="item-main">
              <span className="item-title">
                {session.browser}, {session.ip ?? "unknown IP"}, {lastUsed(session.lastSeenAt)}
              </span>
              {session.current ? <Badge tone="good">This browser</Badge> : null}
            </div>
            <p className="item-meta muted">
              Signed in {formatDateTime(session.createdAt)} · last seen {formatDateTime(session.lastSeenAt)}
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
      {others > 0 || endOthers.isSuccess ? (
        <div className="form-actions sessions-actions">
          <ActionButton
            variant="danger"
            disabled={others === 0}
            pending={endOthers.isPending}
            pendingLabel="Signing out…"
            onClick={() => endOthers.mutate()}
          >
            Sign out everywhere else
          </ActionButton>
        </div>
      ) : null}
      <ActionStatus
        error={end.error ?? endOthers.error}
        success={endOthers.isSuccess ? `Signed out everywhere else: ${ended === 1 ? "1 session" : `${ended} sessions`} ended.` : undefined}
      />
    </>
  );
}
