"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, type Ref, useId, useRef, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextAreaField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";

const TYPING_SIGNAL_MS = 3_000;

type Mode = "reply" | "note";

/**
 * Where a person writes: a reply to the visitor, or an internal note for the team (the tabs say
 * which; a note is never sent). A saved reply fills the box with the conversation's details.
 * Ctrl+Enter (⌘+Enter on a Mac) sends; Esc leaves the box (the workspace handles it).
 */
export function ReplyComposer({
  conversationId,
  isMine,
  textRef,
  onSent,
  onStatus,
}: {
  conversationId: string;
  /** The person already has the conversation (sending does not take it over). */
  isMine: boolean;
  textRef: Ref<HTMLTextAreaElement>;
  onSent: () => Promise<unknown>;
  /** What the section's one status line shows: the last attempt's error, or what was done. */
  onStatus: (status: { error?: unknown; success?: string }) => void;
}) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<Mode>("reply");
  const [text, setText] = useState("");
  // The visitor sees "<name> is typing…": signalled at most every TYPING_SIGNAL_MS while typing a reply.
  const lastTypingSignal = useRef(0);
  const typing = useMutation(trpc.conversations.typing.mutationOptions());
  const savedReplies = useQuery(trpc.savedReplies.list.queryOptions());
  const sent = (message: string) => ({
    onSuccess: async () => {
      setText("");
      onStatus({ success: message });
      await onSent();
    },
    onError: (error: unknown) => onStatus({ error }),
  });
  const reply = useMutation(trpc.conversations.reply.mutationOptions(sent("Reply sent.")));
  const note = useMutation(trpc.conversations.addNote.mutationOptions(sent("Note added. Only your team sees it.")));
  const fill = useMutation(
    trpc.savedReplies.fill.mutationOptions({
      onSuccess: ({ text: filled }) => setText((current) => (current.trim() ? `${current.trimEnd()}\n\n${filled}` : filled)),
      onError: (error: unknown) => onStatus({ error }),
    }),
  );
  const active = mode === "reply" ? reply : note;
  const savedReplyId = useId();

  function switchTo(next: Mode) {
    setMode(next);
    onStatus({});
    reply.reset();
    note.reset();
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    onStatus({});
    if (mode === "reply") reply.mutate({ id: conversationId, text });
    else note.mutate({ id: conversationId, text });
  }

  return (
    <PanelForm onSubmit={submit} className={`form composer composer-${mode}`}>
      <div className="composer-top">
        <div className="composer-tabs" role="radiogroup" aria-label="Write">
          {(["reply", "note"] as const).map((option) => (
            <label key={option} className={mode === option ? "composer-tab composer-tab-current" : "composer-tab"}>
              <input type="radio" name="composer-mode" value={option} checked={mode === option} onChange={() => switchTo(option)} />
              {option === "reply" ? "Reply to visitor" : "Internal note"}
            </label>
          ))}
        </div>
        <span className="shortcuts">
          <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> send · <kbd>Esc</kbd> leave · <kbd>r</kbd> write
        </span>
      </div>
      <TextAreaField
        ref={textRef}
        aria-keyshortcuts="r"
        label={mode === "reply" ? "Your reply" : "Your note"}
        name="text"
        rows={2}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !active.isPending) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
        value={text}
        hint={
          mode === "note"
            ? "Only your team sees notes: never the visitor, the HTTP API or webhooks."
            : isMine
              ? "Delivered to the visitor as a team member's message."
              : "Sending takes the conversation over: the agent stops answering."
        }
        onChange={(event) => {
          setText(event.target.value);
          if (mode === "reply" && event.target.value.trim() && Date.now() - lastTypingSignal.current > TYPING_SIGNAL_MS) {
            lastTypingSignal.current = Date.now();
            typing.mutate({ id: conversationId });
          }
        }}
        error={fieldErrors(active.error).text}
      />
      <div className="button-row">
        <ActionButton type="submit" variant="primary" pending={active.isPending} pendingLabel={mode === "reply" ? "Sending…" : "Adding…"}>
          {mode === "reply" ? "Send reply" : "Add note"}
        </ActionButton>
        {mode === "reply" ? (
          <span className="composer-saved">
            <label htmlFor={savedReplyId} className="visually-hidden">
              Insert a saved reply
            </label>
            <select
              id={savedReplyId}
              value=""
              disabled={fill.isPending || !savedReplies.data?.length}
              onChange={(event) => {
                if (event.target.value) fill.mutate({ id: event.target.value, conversationId });
              }}
            >
              <option value="">{savedReplies.data?.length === 0 ? "No saved replies yet" : "Insert a saved reply…"}</option>
              {(savedReplies.data ?? []).map((saved) => (
                <option key={saved.id} value={saved.id}>
                  {saved.title}
                </option>
              ))}
            </select>
            <Link href="/panel/conversations/saved-replies" className="small">
              Manage
              <span className="visually-hidden"> saved replies</span>
            </Link>
          </span>
        ) : null}
      </div>
    </PanelForm>
  );
}
