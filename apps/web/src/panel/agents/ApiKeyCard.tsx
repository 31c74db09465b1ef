"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { NewKeyDialog } from "./NewKeyDialog.tsx";

type Agent = RouterOutputs["agents"]["get"];

/** `onOpenChannels` shows the Channels tab, where the HTTP API is turned on. */
export function ApiKeyCard({ agent, onOpenChannels }: { agent: Agent; onOpenChannels(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<"rotate" | "revoke" | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  // Dialogs hand focus back here: the Revoke button disappears with the key.
  const primaryRef = useRef<HTMLButtonElement>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.agents.get.queryFilter({ id: agent.id })),
      queryClient.invalidateQueries(trpc.agents.list.queryFilter()),
    ]);
  const generate = useMutation(
    trpc.keys.generate.mutationOptions({
      onSuccess: async (result) => {
        setConfirming(null);
        setNewKey(result.key);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await refresh();
      },
    }),
  );

  function startGenerate() {
    revoke.reset();
    // Rotation breaks the current integration at once: ask first. A first key breaks nothing.
    if (agent.keyConfigured) setConfirming("rotate");
    else generate.mutate({ agentId: agent.id });
  }

  function closeConfirm() {
    setConfirming(null);
    generate.reset();
    revoke.reset();
  }

  return (
    <section aria-labelledby="api-key-heading" className="card">
      <h2 id="api-key-heading">HTTP API key</h2>
      {agent.keyConfigured ? (
        <p>
          <span className="key-mask">
            <span className="visually-hidden">Key ending in </span>
            <span aria-hidden="true">•••• </span>
            {agent.keyLast4}
          </span>{" "}
          <span className="muted">created {formatDateTime(agent.keyCreatedAt)}</span>
        </p>
      ) : (
        <p className="muted">No key configured. Requests to the messages API get 401 until you generate one.</p>
      )}
      {agent.httpApiEnabled ? null : (
        <p className="notice">
          The HTTP API is disabled for this agent: requests get 403 until you enable it in the{" "}
          <button type="button" className="link-button" onClick={onOpenChannels}>
            Channels tab
          </button>
          .
        </p>
      )}
      <p className="muted small">
        Use the key only from your servers, as <code>Authorization: Bearer &lt;key&gt;</code> on{" "}
        <code>POST /api/agent/{agent.id}/messages</code>. It is shown once.
      </p>
      <div className="button-row">
        <ActionButton
          ref={primaryRef}
          variant="primary"
          onClick={startGenerate}
          pending={generate.isPending && confirming === null}
          pendingLabel="Generating…"
        >
          {agent.keyConfigured ? "Rotate key" : "Generate key"}
        </ActionButton>
        {agent.keyConfigured ? (
          <ActionButton
            variant="danger"
            disabled={generate.isPending}
            onClick={() => {
              generate.reset();
              setConfirming("revoke");
            }}
          >
            Revoke key
          </ActionButton>
        ) : null}
      </div>
      <ActionStatus
        error={confirming === null ? (generate.error ?? revoke.error) : undefined}
        success={revoke.isSuccess ? "Key revoked. Requests with it now get 401." : undefined}
      />

      <ConfirmDialog
        open={confirming === "rotate"}
        title="Rotate the API key?"
        confirmLabel="Yes, rotate key"
        pendingLabel="Rotating…"
        pending={generate.isPending}
        error={generate.error}
        onConfirm={() => generate.mutate({ agentId: agent.id })}
        onCancel={closeConfirm}
        finalFocusRef={primaryRef}
      >
        <p>
          A new key will be generated and the current key (•••• {agent.keyLast4}) <strong>stops working immediately</strong>. Every
          integration still using it gets 401 until you give it the new key.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "revoke"}
        title="Revoke the API key?"
        confirmLabel="Yes, revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoke.mutate({ agentId: agent.id })}
        onCancel={closeConfirm}
        finalFocusRef={primaryRef}
      >
        <p>
          The key (•••• {agent.keyLast4}) <strong>stops working immediately</strong> and the messages API answers 401 until a new key is
          generated.
        </p>
      </ConfirmDialog>
      <NewKeyDialog keyValue={newKey} onClose={() => setNewKey(null)} finalFocusRef={primaryRef} />
    </section>
  );
}
