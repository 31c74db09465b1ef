"use client";

import { type RefObject, useRef, useState } from "react";
import { Modal } from "../ui/Modal.tsx";

/**
 * Shows a new signing secret once (after creating an endpoint or rolling its secret). The value
 * lives only in the parent's state while this dialog is open.
 */
export function SecretDialog({
  secret,
  rolled,
  onClose,
  finalFocusRef,
}: {
  secret: string | null;
  /** After a roll: the previous secret keeps signing for 24 hours. */
  rolled?: boolean;
  onClose: () => void;
  finalFocusRef?: RefObject<HTMLElement | null>;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    if (!inputRef.current || secret === null) return;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(secret);
        setCopyState("copied");
        return;
      }
    } catch {
      // Permission refused: fall back to the selection.
    }
    inputRef.current.focus();
    inputRef.current.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
    setCopyState(copied ? "copied" : "failed");
  }

  function close() {
    setCopyState("idle");
    onClose();
  }

  return (
    <Modal open={secret !== null} onClose={close} title="Signing secret" initialFocusRef={inputRef} finalFocusRef={finalFocusRef}>
      <p className="notice notice-warn">Copy this secret now and store it with your webhook receiver. It won't be shown again.</p>
      <div className="field">
        <label htmlFor="webhook-secret">Secret</label>
        <div className="copy-row">
          <input
            ref={inputRef}
            id="webhook-secret"
            data-testid="webhook-secret"
            className="mono"
            readOnly
            value={secret ?? ""}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            autoComplete="off"
          />
          <button type="button" className="btn btn-primary" onClick={copy}>
            Copy
          </button>
        </div>
      </div>
      <p role="status" className={copyState === "failed" ? "status-error" : "status-success"}>
        {copyState === "copied"
          ? "Copied to the clipboard."
          : copyState === "failed"
            ? "Copy failed: select the secret and copy it manually."
            : ""}
      </p>
      <p className="muted small">
        {rolled
          ? "For the next 24 hours every delivery carries two signatures, one per secret, so your receiver can switch without missing events."
          : "Verify each delivery's webhook-signature header with it (Standard Webhooks)."}
      </p>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={close}>
          Done
        </button>
      </div>
    </Modal>
  );
}
