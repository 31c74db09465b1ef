"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextAreaField } from "../ui/fields.tsx";
import { ActionStatus } from "../ui/status.tsx";

/** Shown while a person is needed: reply as a team member, or hand the conversation back. */
export function EscalationPanel({ conversationId, status }: { conversationId: string; status: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.conversations.get.queryFilter({ id: conversationId })),
      queryClient.invalidateQueries(trpc.conversations.list.queryFilter()),
    ]);
  const reply = useMutation(
    trpc.conversations.reply.mutationOptions({
      onSuccess: async () => {
        setText("");
        await refresh();
      },
    }),
  );
  const handBack = useMutation(trpc.conversations.setStatus.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent) {
    event.preventDefault();
    handBack.reset();
    reply.mutate({ id: conversationId, text });
  }

  if (status !== "escalated") {
    // Stays mounted after a hand-back so the confirmation is seen and announced.
    return handBack.isSuccess ? (
      <p role="status" className="notice">
        Handed back to the agent: it answers the visitor's next message.
      </p>
    ) : null;
  }

  return (
    <section aria-labelledby="escalation-heading" className="card card-escalated">
      <h2 id="escalation-heading">Waiting for a person</h2>
      <p className="small">
        The agent handed this conversation over. Your reply is stored as a team member's message and delivered to the visitor.
      </p>
      <form onSubmit={submit} noValidate className="form">
        <TextAreaField
          label="Your reply"
          name="text"
          rows={4}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (reply.isSuccess) reply.reset();
          }}
          error={fieldErrors(reply.error).text}
        />
        <div className="button-row">
          <ActionButton type="submit" variant="primary" pending={reply.isPending} pendingLabel="Sending…">
            Send reply
          </ActionButton>
          <ActionButton
            pending={handBack.isPending}
            onClick={() => {
              reply.reset();
              handBack.mutate({ id: conversationId, status: "active" });
            }}
          >
            Hand back to agent
          </ActionButton>
        </div>
        <ActionStatus error={reply.error ?? handBack.error} success={reply.isSuccess ? "Reply sent." : undefined} />
      </form>
    </section>
  );
}
