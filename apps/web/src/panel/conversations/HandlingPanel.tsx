"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSession } from "next-auth/react";
import { type RefObject, useEffect, useRef, useState } from "react";
import { useCan } from "../access/permissions.tsx";
import { formatDateTime, formatWaited } from "../format.ts";
import { useShortcuts } from "../inbox/shortcuts.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField } from "../ui/fields.tsx";

type Conversation = RouterOutputs["conversations"]["get"];

/** Who answers the visitor now, in a sentence. */
export function handlingText(conversation: Conversation, myId: string | undefined, now: number): string {
  const assignee = conversation.assignee;
  if (conversation.status === "resolved") return "Resolved. The agent answers if the visitor writes again, which reopens it.";
  if (conversation.status === "escalated") {
    const since = conversation.waitingSince ?? conversation.escalatedAt;
    if (!assignee) {
      const waited = since ? ` for ${formatWaited(since, now)}` : "";
      return `Waiting for a person${waited}. The agent has stopped answering; take it over or reply.`;
    }
    // Assigned is not answered: the visitor hears that a person joined only from a take-over or a reply.
    const waiting = conversation.waitingSince
      ? ` The visitor's latest message has no reply yet (waiting ${formatWaited(conversation.waitingSince, now)}).`
      : "";
    return assignee.id === myId
      ? `You have this conversation. The agent is not answering.${waiting}`
      : `${assignee.name} has this conversation. The agent is not answering.${waiting}`;
  }
  return "The agent is answering. Take over (or just reply) to answer yourself.";
}

/** The outcome of the last thing done to the conversation, for its one status line. */
export interface HandlingStatus {
  error?: unknown;
  success?: string;
}

/**
 * A person's handling of one conversation: take over, hand back, resolve, assign, and the status
 * line the composer shares. Taking over puts the cursor in the composer. Shortcuts: r (write),
 * e (resolve).
 */
export function useConversationHandling(conversation: Conversation, composerRef: RefObject<HTMLTextAreaElement | null>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const myId = (session.data?.user as { id?: string } | undefined)?.id;
  const [done, setDone] = useState<string | null>(null);
  // The composer's last outcome (reply, note, saved reply).
  const [composed, setComposed] = useState<HandlingStatus>({});
  const id = conversation.id;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.conversations.get.queryFilter({ id })),
      queryClient.invalidateQueries(trpc.conversations.list.pathFilter()),
      queryClient.invalidateQueries(trpc.conversations.waiting.pathFilter()),
    ]);
  const after = (message: string, then?: () => void) => ({
    onSuccess: async () => {
      setDone(message);
      then?.();
      await refresh();
    },
  });
  const takeOver = useMutation(
    trpc.conversations.takeOver.mutationOptions(after("You took over: the agent stops answering.", () => composerRef.current?.focus())),
  );
  const handBack = useMutation(
    trpc.conversations.handBack.mutationOptions(after("Handed back to the agent: it answers the visitor's next message.")),
  );
  const resolve = useMutation(trpc.conversations.resolve.mutationOptions(after("Resolved.")));
  const assign = useMutation(trpc.conversations.assign.mutationOptions(after("Assignment saved.")));
  const mutations = [takeOver, handBack, resolve, assign];
  const busy = mutations.some((mutation) => mutation.isPending);
  const error = mutations.find((mutation) => mutation.error)?.error;

  function run(action: () => void) {
    for (const mutation of mutations) mutation.reset();
    setDone(null);
    setComposed({});
    action();
  }
  const isMine = conversation.status === "escalated" && conversation.assignee?.id === myId;
  // Assigned to me is not joined: Take over (or a reply) is what tells the visitor I am here.
  const joinedByMe = isMine && conversation.joinedBy?.id === myId;
  useShortcuts({
    r: () => composerRef.current?.focus(),
    e: () => {
      if (conversation.status !== "resolved" && !busy) run(() => resolve.mutate({ id }));
    },
  });

  return {
    myId,
    isMine,
    joinedByMe,
    busy,
    refresh,
    takeOver: () => run(() => takeOver.mutate({ id })),
    handBack: () => run(() => handBack.mutate({ id })),
    resolve: () => run(() => resolve.mutate({ id })),
    assign: (assigneeId: string | null) => run(() => assign.mutate({ id, assigneeId })),
    pending: { takeOver: takeOver.isPending, handBack: handBack.isPending, resolve: resolve.isPending },
    /** What the status line shows. */
    status: { error: error ?? composed.error, success: done ?? composed.success } satisfies HandlingStatus,
    /** The composer reports its outcome here (it replaces the last action's). */
    onComposed: (status: HandlingStatus) => {
      for (const mutation of mutations) mutation.reset();
      setDone(null);
      setComposed(status);
    },
  };
}

export type ConversationHandling = ReturnType<typeof useConversationHandling>;

/** Take over, hand back, resolve: at the top of the conversation. */
export function ConversationActions({ conversation, handling }: { conversation: Conversation; handling: ConversationHandling }) {
  const row = useRef<HTMLDivElement>(null);
  const clicked = useRef(false);
  // Resolve and Hand back remove their own button once done: the focus would fall to the page, so
  // it moves to the first action left (unless the action put it somewhere, as Take over does).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when an action settles and the status it changed shows.
  useEffect(() => {
    if (!clicked.current || handling.busy) return;
    clicked.current = false;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    row.current?.querySelector<HTMLButtonElement>("button:enabled")?.focus();
  }, [handling.busy, conversation.status]);
  return (
    <div
      className="button-row conversation-actions"
      ref={row}
      onClickCapture={() => {
        clicked.current = true;
      }}
    >
      {handling.joinedByMe ? null : (
        <ActionButton variant="primary" pending={handling.pending.takeOver} pendingLabel="Taking over…" onClick={handling.takeOver}>
          Take over
        </ActionButton>
      )}
      {conversation.status === "active" ? null : (
        <ActionButton pending={handling.pending.handBack} pendingLabel="Handing back…" onClick={handling.handBack}>
          Hand back to agent
        </ActionButton>
      )}
      {conversation.status === "resolved" ? null : (
        <ActionButton pending={handling.pending.resolve} pendingLabel="Resolving…" aria-keyshortcuts="e" onClick={handling.resolve}>
          Resolve
        </ActionButton>
      )}
    </div>
  );
}

/** The handling details beside the conversation: who has it, with which agent, since when. */
export function HandlingCard({ conversation, handling }: { conversation: Conversation; handling: ConversationHandling }) {
  const trpc = useTRPC();
  const can = useCan();
  const team = useQuery(trpc.team.list.queryOptions());
  const myId = handling.myId;
  return (
    <section aria-labelledby="handling-heading" className={`card handling${conversation.status === "escalated" ? " card-escalated" : ""}`}>
      <h2 id="handling-heading">Handling</h2>
      <SelectField
        label="Assigned to"
        value={conversation.assignee?.id ?? ""}
        disabled={handling.busy}
        onChange={(event) => handling.assign(event.target.value || null)}
      >
        <option value="">Nobody</option>
        {(team.data ?? []).map((member) => (
          <option key={member.id} value={member.id}>
            {member.id === myId ? `${member.name} (you)` : member.name}
          </option>
        ))}
      </SelectField>
      <dl className="details">
        {conversation.joinedBy ? (
          <div>
            <dt>Joined by</dt>
            <dd>{conversation.joinedBy.id === myId ? "You" : conversation.joinedBy.name}</dd>
          </div>
        ) : null}
        <div>
          <dt>Agent</dt>
          <dd>
            {can("agents.read") ? (
              <Link href={`/panel/agents/${encodeURIComponent(conversation.agentId)}`}>{conversation.agentName}</Link>
            ) : (
              conversation.agentName
            )}
          </dd>
        </div>
        <div>
          <dt>Channel</dt>
          <dd>{conversation.channel === "widget" ? "Widget" : "HTTP API"}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(conversation.createdAt)}</dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>
            <code>{conversation.id}</code>
          </dd>
        </div>
      </dl>
    </section>
  );
}
