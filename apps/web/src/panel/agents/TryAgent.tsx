"use client";
// "Try it": a test chat with the agent (real turns, kept out of usage, quotas, webhooks and the
// inbox), showing the articles each answer used; and the widget's embed snippet for this server.

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextAreaField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { copyText } from "../ui/OneTimeSecretDialog.tsx";
import { ActionStatus } from "../ui/status.tsx";

type Reply = RouterOutputs["agents"]["testChat"];
type Line = { id: number; role: "user"; text: string } | { id: number; role: "agent"; reply: Reply };

export function TestChat({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState("");
  const conversationId = useRef<string | undefined>(undefined);
  const nextId = useRef(0);
  const turn = useMutation(trpc.agents.testChat.mutationOptions());

  function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message || turn.isPending) return;
    setLines((current) => [...current, { id: nextId.current++, role: "user", text: message }]);
    setText("");
    turn.mutate(
      { agentId, message, conversationId: conversationId.current },
      {
        onSuccess: (reply) => {
          conversationId.current = reply.conversationId;
          setLines((current) => [...current, { id: nextId.current++, role: "agent", reply }]);
        },
      },
    );
  }

  function restart() {
    conversationId.current = undefined;
    setLines([]);
    turn.reset();
  }

  return (
    <section aria-labelledby="test-chat-heading" className="card">
      <h2 id="test-chat-heading">Try it</h2>
      <p className="muted">
        Test turns run against the agent as visitors see it, but never count in usage or quotas, send no webhooks and stay out of the inbox.
      </p>
      <ol className="test-chat-log" aria-live="polite" aria-label="Test conversation">
        {lines.length === 0 ? <li className="muted">Ask something a visitor would ask.</li> : null}
        {lines.map((line) =>
          line.role === "user" ? (
            <li key={line.id} className="test-chat-user">
              <span className="visually-hidden">You: </span>
              {line.text}
            </li>
          ) : (
            <li key={line.id} className="test-chat-agent">
              <span className="visually-hidden">Agent: </span>
              {/* Sanitised by core's Markdown renderer, as the widget shows it. */}
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised HTML */}
              <div dangerouslySetInnerHTML={{ __html: line.reply.html }} />
              <p className="test-chat-sources">
                {line.reply.articles.length === 0 ? (
                  "No article used."
                ) : (
                  <>
                    Articles used:{" "}
                    {line.reply.articles.map((article, index) => (
                      <span key={article.id}>
                        {index > 0 ? ", " : ""}
                        <a href={article.url} target="_blank" rel="noopener noreferrer">
                          {article.title}
                        </a>
                      </span>
                    ))}
                  </>
                )}
                {line.reply.handoffRequested ? " · Handoff to a person requested" : ""}
              </p>
            </li>
          ),
        )}
      </ol>
      <PanelForm onSubmit={submit} className="form">
        <TextAreaField
          label="Test message"
          name="testMessage"
          rows={2}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="form-actions">
          <ActionButton type="submit" variant="primary" pending={turn.isPending} pendingLabel="Asking…">
            Send
          </ActionButton>
          <ActionButton onClick={restart} disabled={lines.length === 0}>
            New test conversation
          </ActionButton>
        </div>
        <ActionStatus error={turn.error ?? undefined} />
      </PanelForm>
    </section>
  );
}

/** The exact script tag for this agent on this server, with a copy button. */
export function EmbedSnippet({ agentId, allowedOrigins }: { agentId: string; allowedOrigins: string[] }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const snippet = `<script src="${origin}/widget.js" data-agent-id="${agentId}" async></script>`;
  return (
    <section aria-labelledby="embed-heading" className="card">
      <h2 id="embed-heading">Embed the widget</h2>
      <p className="muted">Paste before the closing &lt;/body&gt; tag of your site.</p>
      <label htmlFor="embed-snippet" className="visually-hidden">
        Embed snippet
      </label>
      <textarea id="embed-snippet" ref={area} className="embed-snippet" readOnly rows={3} value={snippet} spellCheck={false} />
      <div className="form-actions">
        <ActionButton
          onClick={async () => {
            if (area.current) setCopied(await copyText(area.current, snippet));
          }}
        >
          Copy snippet
        </ActionButton>
      </div>
      <p role="status" className="muted">
        {copied === true ? "Copied to the clipboard." : copied === false ? "Could not copy: select the text and copy it." : ""}
      </p>
      {allowedOrigins.length === 0 ? (
        <p className="field-hint">Add your site to the allowed origins in the settings first: the widget only runs there.</p>
      ) : null}
    </section>
  );
}
