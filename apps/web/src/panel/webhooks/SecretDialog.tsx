"use client";

import type { RefObject } from "react";
import { OneTimeSecretDialog } from "../ui/OneTimeSecretDialog.tsx";

/** Shows a new signing secret once (after creating an endpoint or rolling its secret). */
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
  return (
    <OneTimeSecretDialog
      value={secret}
      title="Signing secret"
      label="Secret"
      fieldId="webhook-secret"
      noun="secret"
      warning="Copy this secret now and store it with your webhook receiver. It won't be shown again."
      footer={
        rolled
          ? "For the next 24 hours every delivery carries two signatures, one per secret, so your receiver can switch without missing events."
          : "Verify each delivery's webhook-signature header with it (Standard Webhooks)."
      }
      onClose={onClose}
      finalFocusRef={finalFocusRef}
    />
  );
}
