"use client";

// A modal on the native <dialog> element: showModal() gives the dialog role, makes the page behind
// it inert and traps Tab inside; we add the label, initial focus and focus return.
import { type ReactNode, type RefObject, useEffect, useId, useRef } from "react";

interface ModalProps {
  open: boolean;
  /** Called on Escape and by the dialog's own buttons; the parent sets `open` to false. */
  onClose: () => void;
  title: string;
  /** Element to focus when the dialog opens; by default its first focusable control. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /**
   * Where focus goes on close; by default the element focused before opening. Set it when that
   * element may be gone or disabled by then (the action removed or replaced it).
   */
  finalFocusRef?: RefObject<HTMLElement | null>;
  /** While true (an action is running) Escape does not close the dialog. */
  busy?: boolean;
  children: ReactNode;
}

const focusableSelector = "input, textarea, select, button, a[href], [tabindex]:not([tabindex='-1'])";

export function Modal({ open, onClose, title, initialFocusRef, finalFocusRef, busy = false, children }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      const target = initialFocusRef?.current ?? dialog.querySelector<HTMLElement>(focusableSelector);
      target?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      (finalFocusRef?.current ?? returnFocusRef.current)?.focus();
      returnFocusRef.current = null;
    }
  }, [open, initialFocusRef, finalFocusRef]);

  // Closing with the component still mounted is handled above; this covers unmounting while open.
  useEffect(() => () => returnFocusRef.current?.focus(), []);

  return (
    <dialog
      ref={dialogRef}
      className="modal"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: let React state decide, so the dialog and `open` never disagree.
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      {open ? (
        <div className="modal-body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
