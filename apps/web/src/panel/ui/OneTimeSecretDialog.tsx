"use client";

import { type ReactNode, type RefObject, useRef, useState } from "react";
import { Modal } from "./Modal.tsx";

/** Copies with the Clipboard API; falls back to the selection where it is unavailable (plain http). */
export async function copyText(input: HTMLInputElement | HTMLTextAreaElement, text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused: try the selection below.
  }
  input.focus();
  input.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/**
 * Shows a secret (an API key, a signing secret) once, with a copy button. The value lives only in
 * the parent's state while the dialog is open; closing it drops the value for good.
 */
export function OneTimeSecretDialog({
  value,
  title,
  label,
  fieldId,
  noun,
  warning,
  footer,
  onClose,
  finalFocusRef,
}: {
  value: string | null;
  title: string;
  label: string;
  /** The input's id and test id. */
  fieldId: string;
  /** What the value is called in the copy-failed hint ("key", "secret"). */
  noun: string;
  warning: string;
  footer: ReactNode;
  onClose: () => void;
  finalFocusRef?: RefObject<HTMLElement | null>;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");

  function close() {
    setCopyState("idle");
    onClose();
  }

  return (
    <Modal open={value !== null} onClose={close} title={title} initialFocusRef={inputRef} finalFocusRef={finalFocusRef}>
      <p className="notice notice-warn">{warning}</p>
      <div className="field">
        <label htmlFor={fieldId}>{label}</label>
        <div className="copy-row">
          <input
            ref={inputRef}
            id={fieldId}
            data-testid={fieldId}
            className="mono"
            readOnly
            value={value ?? ""}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            autoComplete="off"
          />
          <button
            type="button"
            className="btn btn-primary"
            onClick={async () => {
              if (!inputRef.current || value === null) return;
              setCopyState((await copyText(inputRef.current, value)) ? "copied" : "failed");
            }}
          >
            Copy
          </button>
        </div>
      </div>
      <p role="status" className={copyState === "failed" ? "status-error" : "status-success"}>
        {copyState === "copied"
          ? "Copied to the clipboard."
          : copyState === "failed"
            ? `Copy failed: select the ${noun} and copy it manually.`
            : ""}
      </p>
      <p className="muted small">{footer}</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={close}>
          Done
        </button>
      </div>
    </Modal>
  );
}
