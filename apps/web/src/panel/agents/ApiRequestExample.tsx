"use client";
// A first request to the messages API, ready to paste in a terminal: this server's address, this
// agent, and the key from an environment variable (the key itself is shown once, in its dialog).

import { useRef, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { copyText } from "../ui/OneTimeSecretDialog.tsx";

/** The curl command for this server (the panel's own origin: the API is served beside it). */
export function curlExample(origin: string, agentId: string): string {
  return [
    `curl -X POST '${origin}/api/agent/${encodeURIComponent(agentId)}/messages' \\`,
    `  -H "Authorization: Bearer $PARLEY_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"message": "How do I reset my password?"}'`,
  ].join("\n");
}

export function ApiRequestExample({ agentId }: { agentId: string }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const command = curlExample(origin, agentId);
  return (
    <section aria-labelledby="api-example-heading" className="card">
      <h2 id="api-example-heading">Try the API</h2>
      <p className="muted">
        Put the key in <code>PARLEY_API_KEY</code> (<code>export PARLEY_API_KEY=pk_…</code>), then run:
      </p>
      <label htmlFor="api-example-command" className="visually-hidden">
        Example request
      </label>
      <textarea
        id="api-example-command"
        ref={area}
        className="embed-snippet"
        readOnly
        rows={5}
        value={command}
        spellCheck={false}
        wrap="off"
      />
      <div className="form-actions">
        <ActionButton
          onClick={async () => {
            if (area.current) setCopied(await copyText(area.current, command));
          }}
        >
          Copy command
        </ActionButton>
      </div>
      <p role="status" className="muted">
        {copied === true ? "Copied to the clipboard." : copied === false ? "Could not copy: select the text and copy it." : ""}
      </p>
      <p className="field-hint">
        The answer is JSON: the agent&apos;s <code>reply</code> and a <code>conversationId</code> to send back with the next message to
        continue the conversation.
      </p>
    </section>
  );
}
