"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { GuardedDownloads } from "../access/GuardedDownload.tsx";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { Modal } from "../ui/Modal.tsx";
import { ActionStatus } from "../ui/status.tsx";

const CONFIRM_WORD = "ERASE";

interface Props {
  conversation: { id: string; visitorEmail: string | null; erasedAt: string | Date | null };
}

function exportHref(query: Record<string, string>): string {
  return `/api/panel/visitor-data/export?${new URLSearchParams(query)}`;
}

/** Owners and admins: download everything held about the visitor, or erase it (typed confirmation). */
export function VisitorDataCard({ conversation }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<"conversation" | "email">("conversation");
  const [typed, setTyped] = useState("");
  const email = conversation.visitorEmail;
  const erase = useMutation(
    trpc.visitorData.erase.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await Promise.all([
          // pathFilter: the inbox list is an infinite query, which queryFilter() does not match.
          queryClient.invalidateQueries(trpc.conversations.get.pathFilter()),
          queryClient.invalidateQueries(trpc.conversations.list.pathFilter()),
          queryClient.invalidateQueries(trpc.conversations.waiting.pathFilter()),
        ]);
      },
    }),
  );
  const byEmail = scope === "email" && email !== null;
  const confirmed = typed.trim() === CONFIRM_WORD || (byEmail && typed.trim().toLowerCase() === email.toLowerCase());
  const close = () => {
    setOpen(false);
    erase.reset();
  };
  const submit = () => {
    if (!confirmed) return;
    erase.mutate(byEmail ? { email, confirmation: typed } : { conversationId: conversation.id, confirmation: typed });
  };

  return (
    <section aria-labelledby="visitor-data-heading" className="card">
      <h2 id="visitor-data-heading">Visitor's data</h2>
      <p className="muted">Download everything Parley holds about this visitor as JSON, or erase it.</p>
      <div className="visitor-data-actions">
        <GuardedDownloads
          permission="visitorData.manage"
          links={[
            { href: exportHref({ conversationId: conversation.id }), label: "Export this conversation", className: "btn btn-secondary" },
            ...(email ? [{ href: exportHref({ email }), label: `Export all for ${email}`, className: "btn btn-secondary" }] : []),
          ]}
        />
        {conversation.erasedAt ? null : (
          <ActionButton
            variant="danger"
            onClick={() => {
              setTyped("");
              setScope("conversation");
              setOpen(true);
            }}
          >
            Erase visitor's data…
          </ActionButton>
        )}
      </div>
      {erase.isSuccess ? (
        <ActionStatus success={`Erased ${erase.data.conversations} conversation${erase.data.conversations === 1 ? "" : "s"}.`} />
      ) : null}
      <Modal open={open} onClose={close} title="Erase the visitor's data?" busy={erase.isPending}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="modal-text">
            <p>
              The visitor's name, email, phone, variables, tracking events, the text of every message and of the team's notes are erased,
              also from stored webhook events. Message counts and usage stay, so quotas and charts are unchanged. This cannot be undone.
            </p>
          </div>
          {email ? (
            <fieldset>
              <legend>Erase</legend>
              <div className="field field-checkbox">
                <input
                  id="erase-scope-conversation"
                  type="radio"
                  name="erase-scope"
                  checked={scope === "conversation"}
                  onChange={() => setScope("conversation")}
                />
                <label htmlFor="erase-scope-conversation">This conversation</label>
              </div>
              <div className="field field-checkbox">
                <input
                  id="erase-scope-email"
                  type="radio"
                  name="erase-scope"
                  checked={scope === "email"}
                  onChange={() => setScope("email")}
                />
                <label htmlFor="erase-scope-email">Every conversation of {email}</label>
              </div>
            </fieldset>
          ) : null}
          <TextField
            label={byEmail ? `Type ${CONFIRM_WORD} or ${email} to confirm` : `Type ${CONFIRM_WORD} to confirm`}
            name="confirmation"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <ActionStatus error={erase.error} />
          <div className="modal-actions">
            <button type="button" className="btn btn-secondary" onClick={close} disabled={erase.isPending}>
              Cancel
            </button>
            <ActionButton type="submit" variant="danger" pending={erase.isPending} pendingLabel="Erasing…" disabled={!confirmed}>
              Erase data
            </ActionButton>
          </div>
        </form>
      </Modal>
    </section>
  );
}
