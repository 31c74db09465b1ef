"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "next-auth/react";
import { type FormEvent, useRef, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { formatWaited } from "../format.ts";
import { useShortcuts } from "../inbox/shortcuts.ts";
import { useNow } from "../inbox/use-now.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField, TextAreaField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";

type Conversation = RouterOutputs["conversations"]["get"];

const TYPING_SIGNAL_MS = 3_000;

/** Who answers the visitor now, in a sentence. */
function handlingText(conversation: Conversation, myId: string | undefined, now: number): string {
  const assignee = conversation.assignee;
  if (conversation.status === "resolved") return "Resolved. The agent answers if the visitor writes again, which reopens it.";
  if (conversation.status === "escalated") {
    if (!assignee) {
      const waited = conversation.escalatedAt ? ` for ${formatWaited(conversation.escalatedAt, now)}` : "";
      return `Waiting for a person${waited}. The agent has stopped answering; take it over or reply.`;
    }
    return assignee.id === myId
      ? "You have this conversation. The agent is not answering."
      : `${assignee.name} has this conversation. The agent is not answering.`;
  }
  return "The agent is answering. Take over (or just reply) to answer yourself.";
}

/**
 * The person's controls for one conversation: take over, hand back, resolve, assign, reply.
 * Shortcuts: r (reply), e (resolve).
 */
export function HandlingPanel({ conversation }: { conversation: Conversation }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const myId = (session.data?.user as { id?: string } | undefined)?.id;
  const now = useNow();
  const team = useQuery(trpc.team.list.queryOptions());
  const [text, setText] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  // The visitor sees "<name> is typing…": signalled at most every TYPING_SIGNAL_MS while typing.
  const lastTypingSignal = useRef(0);
  const typing = useMutation(trpc.conversations.typing.mutationOptions());
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
  const reply = useMutation(
    trpc.conversations.reply.mutationOptions({
      onSuccess: async () => {
        setText("");
        setDone("Reply sent.");
        await refresh();
      },
    }),
  );
  const takeOver = useMutation(trpc.conversations.takeOver.mutationOptions(after("You took over: the agent stops answering.")));
  const handBack = useMutation(
    trpc.conversations.handBack.mutationOptions(after("Handed back to the agent: it answers the visitor's next message.")),
  );
  const resolve = useMutation(trpc.conversations.resolve.mutationOptions(after("Resolved.")));
  const assign = useMutation(trpc.conversations.assign.mutationOptions(after("Assignment saved.")));
  const mutations = [reply, takeOver, handBack, resolve, assign];
  const busy = mutations.some((mutation) => mutation.isPending);
  const error = mutations.find((mutation) => mutation.error)?.error;

  function run(action: () => void) {
    for (const mutation of mutations) mutation.reset();
    setDone(null);
    action();
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    run(() => reply.mutate({ id, text }));
  }

  const isMine = conversation.status === "escalated" && conversation.assignee?.id === myId;
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
        {isMine ? null : (
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
      <PanelForm onSubmit={submit} className="form">
        <TextAreaField
          ref={replyRef}
          aria-keyshortcuts="r"
          label="Your reply"
          name="text"
          rows={4}
          value={text}
          hint={
            isMine
              ? "Delivered to the visitor as a team member's message."
              : "Sending takes the conversation over: the agent stops answering."
          }
          onChange={(event) => {
            setText(event.target.value);
            if (done) setDone(null);
            if (event.target.value.trim() && Date.now() - lastTypingSignal.current > TYPING_SIGNAL_MS) {
              lastTypingSignal.current = Date.now();
              typing.mutate({ id });
            }
          }}
          error={fieldErrors(reply.error).text}
        />
        <div className="button-row">
          <ActionButton type="submit" variant="primary" pending={reply.isPending} pendingLabel="Sending…">
            Send reply
          </ActionButton>
          <span className="shortcuts">
            <kbd>r</kbd> reply · <kbd>e</kbd> resolve · <kbd>j</kbd>/<kbd>k</kbd> in the list
          </span>
        </div>
        <ActionStatus error={error} success={done ?? undefined} />
      </PanelForm>
    </section>
  );
}
