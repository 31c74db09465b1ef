"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "next-auth/react";
import { useRef, useState } from "react";
import { formatWaited } from "../format.ts";
import { useShortcuts } from "../inbox/shortcuts.ts";
import { useNow } from "../inbox/use-now.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField } from "../ui/fields.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { ReplyComposer } from "./ReplyComposer.tsx";

type Conversation = RouterOutputs["conversations"]["get"];

/** Who answers the visitor now, in a sentence. */
function handlingText(conversation: Conversation, myId: string | undefined, now: number): string {
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

/**
 * The person's controls for one conversation: take over, hand back, resolve, assign, and the
 * composer (reply or internal note). Shortcuts: r (write), e (resolve).
 */
export function HandlingPanel({ conversation }: { conversation: Conversation }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const myId = (session.data?.user as { id?: string } | undefined)?.id;
  const now = useNow();
  const team = useQuery(trpc.team.list.queryOptions());
  const [done, setDone] = useState<string | null>(null);
  // The composer's last outcome (reply, note, saved reply), shown in the section's one status line.
  const [composed, setComposed] = useState<{ error?: unknown; success?: string }>({});
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const id = conversation.id;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.conversations.get.queryFilter({ id })),
      queryClient.invalidateQueries(trpc.conversations.list.pathFilter()),
      queryClient.invalidateQueries(trpc.conversations.waiting.pathFilter()),
    ]);
  const after = (message: string) => ({
    onSuccess: async () => {
      setDone(message);
      await refresh();
    },
  });
  const takeOver = useMutation(trpc.conversations.takeOver.mutationOptions(after("You took over: the agent stops answering.")));
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
    r: () => replyRef.current?.focus(),
    e: () => {
      if (conversation.status !== "resolved" && !busy) run(() => resolve.mutate({ id }));
    },
  });

  return (
    <section aria-labelledby="handling-heading" className={`card handling${conversation.status === "escalated" ? " card-escalated" : ""}`}>
      <h2 id="handling-heading">Handling</h2>
      <p className="handling-state">{handlingText(conversation, myId, now)}</p>
      <div className="button-row">
        {joinedByMe ? null : (
          <ActionButton
            variant="primary"
            pending={takeOver.isPending}
            pendingLabel="Taking over…"
            onClick={() => run(() => takeOver.mutate({ id }))}
          >
            Take over
          </ActionButton>
        )}
        {conversation.status === "active" ? null : (
          <ActionButton pending={handBack.isPending} pendingLabel="Handing back…" onClick={() => run(() => handBack.mutate({ id }))}>
            Hand back to agent
          </ActionButton>
        )}
        {conversation.status === "resolved" ? null : (
          <ActionButton
            pending={resolve.isPending}
            pendingLabel="Resolving…"
            aria-keyshortcuts="e"
            onClick={() => run(() => resolve.mutate({ id }))}
          >
            Resolve
          </ActionButton>
        )}
      </div>
      <SelectField
        label="Assigned to"
        value={conversation.assignee?.id ?? ""}
        disabled={busy}
        onChange={(event) => run(() => assign.mutate({ id, assigneeId: event.target.value || null }))}
      >
        <option value="">Nobody</option>
        {(team.data ?? []).map((member) => (
          <option key={member.id} value={member.id}>
            {member.id === myId ? `${member.name} (you)` : member.name}
          </option>
        ))}
      </SelectField>
      <ReplyComposer
        conversationId={id}
        isMine={isMine}
        textRef={replyRef}
        onSent={refresh}
        onStatus={(status) => {
          for (const mutation of mutations) mutation.reset();
          setDone(null);
          setComposed(status);
        }}
      />
      <ActionStatus error={error ?? composed.error} success={done ?? composed.success} />
    </section>
  );
}
