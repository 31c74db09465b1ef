"use client";

import { type ReactNode, type RefObject, useRef } from "react";
import { ActionButton } from "./buttons.tsx";
import { Modal } from "./Modal.tsx";
import { ActionStatus } from "./status.tsx";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  variant?: "primary" | "danger";
  pending: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  finalFocusRef?: RefObject<HTMLElement | null>;
}

/** Asks before a consequential action; focus starts on Cancel so Enter never confirms by accident. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  variant = "danger",
  pending,
  error,
  onConfirm,
  onCancel,
  finalFocusRef,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal open={open} onClose={onCancel} title={title} initialFocusRef={cancelRef} finalFocusRef={finalFocusRef} busy={pending}>
      <div className="modal-text">{children}</div>
      <ActionStatus error={error} />
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        <ActionButton variant={variant} pending={pending} pendingLabel={pendingLabel} onClick={onConfirm}>
          {confirmLabel}
        </ActionButton>
      </div>
    </Modal>
  );
}
