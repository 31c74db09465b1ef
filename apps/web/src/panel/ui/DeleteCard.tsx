"use client";

import { type ReactNode, useState } from "react";
import { ActionButton } from "./buttons.tsx";
import { ConfirmDialog } from "./ConfirmDialog.tsx";

interface DeleteCardProps {
  /** What is deleted, e.g. "article": the heading, the button and the dialog name it. */
  thing: string;
  /** What deleting it does (shown on the card and again in the dialog). */
  consequences: ReactNode;
  pending: boolean;
  error?: unknown;
  onDelete: () => void;
  /** Closes the dialog when the parent resets the mutation (Cancel). */
  onCancel?: () => void;
}

/** The end of a page: deleting the thing, stated plainly, confirmed in a dialog. */
export function DeleteCard({ thing, consequences, pending, error, onDelete, onCancel }: DeleteCardProps) {
  const [open, setOpen] = useState(false);
  const title = `Delete this ${thing}`;
  return (
    <section aria-label={title} className="card card-danger">
      <h2>{title}</h2>
      <div className="muted">{consequences}</div>
      <ActionButton variant="danger" onClick={() => setOpen(true)}>
        Delete {thing}…
      </ActionButton>
      <ConfirmDialog
        open={open}
        title={`Delete this ${thing}?`}
        confirmLabel={`Delete ${thing}`}
        pendingLabel="Deleting…"
        pending={pending}
        error={error}
        onConfirm={onDelete}
        onCancel={() => {
          setOpen(false);
          onCancel?.();
        }}
      >
        {consequences}
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
