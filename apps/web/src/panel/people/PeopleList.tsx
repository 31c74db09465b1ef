"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatDate } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ActionStatus, Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { ROLE_OPTIONS, type RoleName, roleLabel } from "./roles.ts";

/** The workspace's people (role, active or not) and the invitations still open. */
export function PeopleList({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const people = useQuery(trpc.people.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.people.list.queryFilter());
  const setRole = useMutation(trpc.people.setRole.mutationOptions({ onSettled: refresh }));
  const deactivate = useMutation(trpc.people.deactivate.mutationOptions({ onSettled: refresh }));
  const reactivate = useMutation(trpc.people.reactivate.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.people.revokeInvitation.mutationOptions({ onSettled: refresh }));

  if (people.isPending) return <Loading />;
  if (people.isError) return <QueryError error={people.error} onRetry={() => people.refetch()} />;
  const error = setRole.error ?? deactivate.error ?? reactivate.error ?? revoke.error;

  return (
    <>
      <ActionStatus error={error} />
      <ul className="item-list" aria-label="People">
        {people.data.people.map((person) => (
          <li key={person.id} className="item" data-testid="person">
            <div className="item-main">
              <span className="item-title">{person.name || person.email}</span>
              {person.id === currentUserId ? <Badge>You</Badge> : null}
              {person.active ? null : <Badge tone="bad">Deactivated</Badge>}
            </div>
            <p className="item-meta muted">
              {person.email} · joined {formatDate(person.createdAt)}
            </p>
            <div className="person-actions">
              <label className="inline-label">
                <span>Role</span>
                <select
                  value={person.role}
                  disabled={setRole.isPending}
                  onChange={(event) => setRole.mutate({ userId: person.id, role: event.target.value as RoleName })}
                >
                  {ROLE_OPTIONS.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </label>
              {person.active ? (
                <ActionButton
                  variant="danger"
                  pending={deactivate.isPending && deactivate.variables?.userId === person.id}
                  pendingLabel="Deactivating…"
                  onClick={() => deactivate.mutate({ userId: person.id })}
                >
                  Deactivate<span className="visually-hidden"> {person.email}</span>
                </ActionButton>
              ) : (
                <ActionButton
                  pending={reactivate.isPending && reactivate.variables?.userId === person.id}
                  pendingLabel="Reactivating…"
                  onClick={() => reactivate.mutate({ userId: person.id })}
                >
                  Reactivate<span className="visually-hidden"> {person.email}</span>
                </ActionButton>
              )}
            </div>
          </li>
        ))}
      </ul>
      <h2 id="invitations-heading">Open invitations</h2>
      {people.data.invitations.length === 0 ? (
        <EmptyState>No open invitations.</EmptyState>
      ) : (
        <ul className="item-list" aria-labelledby="invitations-heading">
          {people.data.invitations.map((invitation) => (
            <li key={invitation.id} className="item" data-testid="invitation">
              <div className="item-main">
                <span className="item-title">{invitation.email}</span>
                <Badge tone="warn">{roleLabel(invitation.role)}</Badge>
              </div>
              <p className="item-meta muted">
                Invited {formatDate(invitation.createdAt)} · expires {formatDate(invitation.expiresAt)}
              </p>
              <div className="person-actions">
                <ActionButton
                  pending={revoke.isPending && revoke.variables?.id === invitation.id}
                  pendingLabel="Withdrawing…"
                  onClick={() => revoke.mutate({ id: invitation.id })}
                >
                  Withdraw<span className="visually-hidden"> the invitation of {invitation.email}</span>
                </ActionButton>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
