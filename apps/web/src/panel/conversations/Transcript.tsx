"use client";

import { formatDateTime } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";
import { EmptyState } from "../ui/status.tsx";
import { RichContent } from "./RichContent.tsx";
import { ToolCalls } from "./ToolCalls.tsx";
import { InterruptedNote, SpokenBadge } from "./VoiceMarks.tsx";

type Message = RouterOutputs["conversations"]["get"]["messages"][number];
type TrackingEvent = RouterOutputs["conversations"]["get"]["trackingEvents"][number];
type Activity = RouterOutputs["conversations"]["get"]["activity"][number];
type Note = RouterOutputs["conversations"]["get"]["notes"][number];

const roleLabel: Record<string, string> = { user: "Visitor", agent: "Agent", human: "Team member" };

/** A timeline entry in words: "Taken over by Sam", "Assigned to Ada by Sam"... */
export function activityText(entry: Activity): string {
  const by = entry.actorName ?? "a former team member";
  switch (entry.kind) {
    case "taken_over":
      return `Taken over by ${by}`;
    case "handed_back":
      return `Handed back to the agent by ${by}`;
    case "assigned":
      return `Assigned to ${entry.assigneeName ?? "a former team member"} by ${by}`;
    case "unassigned":
      return `Unassigned by ${by}`;
    case "resolved":
      return `Resolved by ${by}`;
    case "reopened":
      return "Reopened by a new message";
    case "escalated":
      return "The visitor asked for a person";
  }
}

export function Transcript({
  messages,
  events = [],
  activity = [],
  notes = [],
  erased = false,
}: {
  /** The visitor's data was erased: blank texts read "Erased". */
  erased?: boolean;
  messages: Message[];
  events?: TrackingEvent[];
  activity?: Activity[];
  notes?: Note[];
}) {
  if (messages.length === 0 && events.length === 0 && activity.length === 0 && notes.length === 0)
    return <EmptyState>No messages yet.</EmptyState>;
  // Messages, the page's tracking events (widget) and the inbox's changes, in time order (a change
  // made in the same instant as a turn follows its messages).
  const timeline = [
    ...messages.map((message) => ({ kind: "message" as const, at: new Date(message.createdAt).getTime(), message })),
    ...events.map((event) => ({ kind: "event" as const, at: new Date(event.createdAt).getTime(), event })),
    ...activity.map((entry) => ({ kind: "activity" as const, at: new Date(entry.createdAt).getTime() + 0.5, entry })),
    ...notes.map((note) => ({ kind: "note" as const, at: new Date(note.createdAt).getTime() + 0.5, note })),
  ].sort((a, b) => a.at - b.at);
  return (
    <ol className="transcript">
      {timeline.map((item) =>
        item.kind === "activity" ? (
          <li key={`activity-${item.entry.id}`} className="message message-activity">
            {activityText(item.entry)} ·{" "}
            <time dateTime={new Date(item.entry.createdAt).toISOString()}>{formatDateTime(item.entry.createdAt)}</time>
          </li>
        ) : item.kind === "note" ? (
          <li key={`note-${item.note.id}`} className="message message-note">
            <p className="message-meta">
              <strong>Internal note</strong>{" "}
              <span className="muted">
                {item.note.authorName ?? "A former team member"} · {formatDateTime(item.note.createdAt)} · only your team sees this
              </span>
            </p>
            {erased && item.note.text === "" ? <ErasedText /> : <p className="message-text">{item.note.text}</p>}
          </li>
        ) : item.kind === "event" ? (
          <li key={`event-${item.event.id}`} className="message message-event">
            <p className="message-meta">
              <strong>Page event</strong> <span className="muted">{formatDateTime(item.event.createdAt)}</span>
            </p>
            <p className="message-text">
              <code>{item.event.event}</code>
              {Object.keys(item.event.properties).length > 0 ? <> {JSON.stringify(item.event.properties)}</> : null}
            </p>
          </li>
        ) : (
          <MessageItem key={item.message.id} message={item.message} erased={erased} />
        ),
      )}
    </ol>
  );
}

function ErasedText() {
  return <p className="message-text message-erased muted">Erased</p>;
}

function MessageItem({ message, erased }: { message: Message; erased: boolean }) {
  return (
    <li className={`message message-${message.role}`}>
      <p className="message-meta">
        <strong>{roleLabel[message.role] ?? message.role}</strong> {message.voice ? <SpokenBadge /> : null}{" "}
        <span className="muted">{formatDateTime(message.createdAt)}</span>
      </p>
      {erased && message.text === "" ? (
        <ErasedText />
      ) : message.html === null ? (
        <p className="message-text">{message.text}</p>
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML from the server's one Markdown sanitiser (@parley/core/markdown).
        <div className="message-text message-markdown prose" dangerouslySetInnerHTML={{ __html: message.html }} />
      )}
      {message.interrupted ? <InterruptedNote /> : null}
      <RichContent items={message.richContent} />
      <TurnDetails message={message} />
    </li>
  );
}

/** How the agent's turn was made (its tokens and tool calls), folded away: a person reads the words first. */
function TurnDetails({ message }: { message: Message }) {
  const tokens = message.role === "agent" && message.tokens > 0 ? message.tokens : 0;
  const calls = message.toolCalls ?? [];
  if (tokens === 0 && calls.length === 0) return null;
  return (
    <details className="message-details">
      <summary>Details</summary>
      {tokens > 0 ? <p className="small muted">{tokens} tokens</p> : null}
      <ToolCalls calls={calls} />
    </details>
  );
}
