"use client";

import { formatDateTime } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";
import { EmptyState } from "../ui/status.tsx";
import { RichContent } from "./RichContent.tsx";
import { ToolCalls } from "./ToolCalls.tsx";

type Message = RouterOutputs["conversations"]["get"]["messages"][number];
type TrackingEvent = RouterOutputs["conversations"]["get"]["trackingEvents"][number];

const roleLabel: Record<string, string> = { user: "Visitor", agent: "Agent", human: "Team member" };

export function Transcript({ messages, events = [] }: { messages: Message[]; events?: TrackingEvent[] }) {
  if (messages.length === 0 && events.length === 0) return <EmptyState>No messages yet.</EmptyState>;
  // Messages and the page's tracking events (widget), in time order.
  const timeline = [
    ...messages.map((message) => ({ kind: "message" as const, at: new Date(message.createdAt).getTime(), message })),
    ...events.map((event) => ({ kind: "event" as const, at: new Date(event.createdAt).getTime(), event })),
  ].sort((a, b) => a.at - b.at);
  return (
    <ol className="transcript">
      {timeline.map((item) =>
        item.kind === "event" ? (
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
          <MessageItem key={item.message.id} message={item.message} />
        ),
      )}
    </ol>
  );
}

function MessageItem({ message }: { message: Message }) {
  return (
    <li className={`message message-${message.role}`}>
      <p className="message-meta">
        <strong>{roleLabel[message.role] ?? message.role}</strong>{" "}
        <span className="muted">
          {formatDateTime(message.createdAt)}
          {message.role === "agent" && message.tokens > 0 ? ` · ${message.tokens} tokens` : ""}
        </span>
      </p>
      {message.html === null ? (
        <p className="message-text">{message.text}</p>
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML from the server's one Markdown sanitiser (@parley/core/markdown).
        <div className="message-text message-markdown prose" dangerouslySetInnerHTML={{ __html: message.html }} />
      )}
      <ToolCalls calls={message.toolCalls} />
      <RichContent items={message.richContent} />
    </li>
  );
}
