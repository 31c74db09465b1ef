"use client";

import { SAVED_REPLY_PLACEHOLDERS } from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { TextAreaField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type SavedReply = RouterOutputs["savedReplies"]["list"][number];

const placeholderHint = (
  <>
    Placeholders, filled in when the reply is inserted:{" "}
    {SAVED_REPLY_PLACEHOLDERS.map((name, i) => (
      <span key={name}>
        {i > 0 ? ", " : null}
        <code>{`{{${name}}}`}</code>
      </span>
    ))}
    . Add a fallback for when it is unknown: <code>{"{{visitor.name|there}}"}</code>.
  </>
);

/** The team's saved replies: add, edit, remove. Inserted from a conversation's reply box. */
export function SavedRepliesScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.savedReplies.list.queryOptions());
  const [editing, setEditing] = useState<SavedReply | null>(null);
  const [removing, setRemoving] = useState<SavedReply | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.savedReplies.list.pathFilter());
  const remove = useMutation(
    trpc.savedReplies.delete.mutationOptions({
      onSuccess: async () => {
        setRemoving(null);
        await refresh();
      },
    }),
  );

  return (
    <>
      <p className="breadcrumb">
        <Link href="/panel/conversations">← Conversations</Link>
      </p>
      <div className="page-heading">
        <h1>Saved replies</h1>
      </div>
      <p className="muted">Write an answer once; insert it in any conversation from the reply box, then edit it before sending.</p>
      <div className="grid-aside">
        <section aria-labelledby="saved-list-heading" className="card">
          <h2 id="saved-list-heading">The team's replies</h2>
          {list.isPending ? (
            <Loading label="Loading saved replies…" />
          ) : list.isError ? (
            <QueryError error={list.error} onRetry={() => list.refetch()} />
          ) : list.data.length === 0 ? (
            <EmptyState>No saved replies yet. Add the answers your team types most.</EmptyState>
          ) : (
            <ul className="saved-replies">
              {list.data.map((saved) => (
                <li key={saved.id} className="saved-reply">
                  <h3>{saved.title}</h3>
                  <p className="message-text">{saved.text}</p>
                  <div className="button-row">
                    <ActionButton onClick={() => setEditing(saved)} aria-label={`Edit ${saved.title}`}>
                      Edit
                    </ActionButton>
                    <ActionButton variant="danger" onClick={() => setRemoving(saved)} aria-label={`Remove ${saved.title}`}>
                      Remove
                    </ActionButton>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <SavedReplyForm key={editing?.id ?? "new"} editing={editing} onDone={() => setEditing(null)} onSaved={refresh} />
      </div>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this saved reply?"
        confirmLabel="Remove"
        pendingLabel="Removing…"
        variant="danger"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        “{removing?.title}” is removed for the whole team. Conversations it was sent in keep their messages.
      </ConfirmDialog>
    </>
  );
}

function SavedReplyForm({ editing, onDone, onSaved }: { editing: SavedReply | null; onDone: () => void; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [title, setTitle] = useState(editing?.title ?? "");
  const [text, setText] = useState(editing?.text ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const options = (message: string) => ({
    onSuccess: async () => {
      await onSaved();
      if (editing) onDone();
      else {
        setTitle("");
        setText("");
      }
      setSaved(message);
    },
  });
  const create = useMutation(trpc.savedReplies.create.mutationOptions(options("Saved reply added.")));
  const update = useMutation(trpc.savedReplies.update.mutationOptions(options("Saved reply changed.")));
  const save = editing ? update : create;
  const errors = fieldErrors(save.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    if (editing) update.mutate({ id: editing.id, title, text });
    else create.mutate({ title, text });
  }

  return (
    <section aria-labelledby="saved-form-heading" className="card">
      <h2 id="saved-form-heading">{editing ? `Edit “${editing.title}”` : "Add a saved reply"}</h2>
      <PanelForm onSubmit={submit} className="form">
        <TextField label="Title" name="title" value={title} onChange={(event) => setTitle(event.target.value)} error={errors.title} />
        <TextAreaField
          label="Reply"
          name="text"
          rows={6}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={errors.text}
          hint={placeholderHint}
        />
        <div className="button-row">
          <ActionButton type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
            {editing ? "Save changes" : "Add saved reply"}
          </ActionButton>
          {editing ? <ActionButton onClick={onDone}>Cancel</ActionButton> : null}
        </div>
        <ActionStatus error={save.error} success={saved ?? undefined} />
      </PanelForm>
    </section>
  );
}
