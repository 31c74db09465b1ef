"use client";

import { useParams, useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useRef } from "react";
import { segmentId } from "../params.ts";
import { ConversationsScreen } from "./ConversationsScreen.tsx";
import { parseFilters } from "./filters.ts";

/**
 * The support workspace: the list on the left, the open conversation (transcript, pinned composer)
 * in the middle, the visitor and handling details on the right. On a phone the list and the
 * conversation are two screens: the list until a conversation is open, then the conversation.
 */
export function InboxWorkspace({ children }: { children: ReactNode }) {
  const params = useParams<{ conversationId?: string }>();
  const searchParams = useSearchParams();
  const openId = params.conversationId ? segmentId(params.conversationId) : null;
  const filters = parseFilters(Object.fromEntries(searchParams.entries()));
  const workspaceRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target instanceof Node && workspaceRef.current?.contains(event.target)) leaveFieldOnEscape(event);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <div className={openId ? "inbox-workspace inbox-workspace-open" : "inbox-workspace"} ref={workspaceRef}>
      <ConversationsScreen filters={filters} openId={openId} />
      {children}
    </div>
  );
}

/**
 * Esc leaves the text field being typed in (what was typed stays), so the single-key shortcuts
 * work again. A select's own Esc (closing its options) is left to the browser.
 */
function leaveFieldOnEscape(event: KeyboardEvent) {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  const target = event.target;
  if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== "search")) target.blur();
  else if (target instanceof HTMLInputElement && target.value === "") target.blur();
}

/** The middle of the workspace while no conversation is open (the list is the only screen on a phone). */
export function NoConversationSelected() {
  return (
    <div className="conversation-none">
      <p className="conversation-none-title">Select a conversation</p>
      <p className="muted">Pick one from the list to read it and reply. Those waiting for a person come first.</p>
    </div>
  );
}
