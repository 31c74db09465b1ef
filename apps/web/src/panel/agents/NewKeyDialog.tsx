"use client";

import type { RefObject } from "react";
import { OneTimeSecretDialog } from "../ui/OneTimeSecretDialog.tsx";

/** Shows a freshly generated HTTP API key once. */
export function NewKeyDialog({
  keyValue,
  onClose,
  finalFocusRef,
}: {
  keyValue: string | null;
  onClose: () => void;
  finalFocusRef?: RefObject<HTMLElement | null>;
}) {
  return (
    <OneTimeSecretDialog
      value={keyValue}
      title="Your new API key"
      label="API key"
      fieldId="new-api-key"
      noun="key"
      warning="Copy this key now and store it somewhere safe. It won't be shown again."
      footer="The previous key, if there was one, no longer works."
      onClose={onClose}
      finalFocusRef={finalFocusRef}
    />
  );
}
