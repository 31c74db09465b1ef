"use client";

import { type RefObject, useRef, useState } from "react";
import { Modal } from "../ui/Modal.tsx";

/** Copies with the Clipboard API; falls back to the selection where it is unavailable (plain http). */
async function copyText(input: HTMLInputElement, text: string): Promise<boolean> {
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
 * Shows a freshly generated key once. The key lives only in the parent's state while this dialog
 * is open; closing it drops the value for good.
 */
export function NewKeyDialog({
  keyValue,
  onClose,
  finalFocusRef,
}: {
  keyValue: string | null;
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
    <Modal open={keyValue !== null} onClose={close} title="Your new API key" initialFocusRef={inputRef} finalFocusRef={finalFocusRef}>
      <p className="notice notice-warn">Copy this key now and store it somewhere safe. It won't be shown again.</p>
      <div className="field">
        <label htmlFor="new-api-key">API key</label>
        <div className="copy-row">
          <input
            ref={inputRef}
            id="new-api-key"
            data-testid="new-api-key"
            className="mono"
            readOnly
            value={keyValue ?? ""}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            autoComplete="off"
          />
          <button
            type="button"
            className="btn btn-primary"
            onClick={async () => {
              if (!inputRef.current || keyValue === null) return;
              setCopyState((await copyText(inputRef.current, keyValue)) ? "copied" : "failed");
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
            ? "Copy failed: select the key and copy it manually."
            : ""}
      </p>
      <p className="muted small">The previous key, if there was one, no longer works.</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={close}>
          Done
        </button>
      </div>
    </Modal>
  );
}
