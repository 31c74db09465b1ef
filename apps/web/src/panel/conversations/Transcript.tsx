"use client";

import { formatDateTime } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";
import { EmptyState } from "../ui/status.tsx";
import { RichContent } from "./RichContent.tsx";
import { ToolCalls } from "./ToolCalls.tsx";

type Message = RouterOutputs["conversations"]["get"]["messages"][number];

const roleLabel: Record<string, string> = { user: "Visitor", agent: "Agent", human: "Team member" };

export function Transcript({ messages }: { messages: Message[] }) {
  if (messages.length === 0) return <EmptyState>No messages yet.</EmptyState>;
  return (
    <ol className="transcript">
      {messages.map((message) => (
        <li key={message.id} className={`message message-${message.role}`}>
          <p className="message-meta">
            <strong>{roleLabel[message.role] ?? message.role}</strong>{" "}
            <span className="muted">
              {formatDateTime(message.createdAt)}
              {message.role === "agent" && message.tokens > 0 ? ` · ${message.tokens} tokens` : ""}
            </span>
          </p>
          <p className="message-text">{message.text}</p>
          <ToolCalls calls={message.toolCalls} />
          <RichContent items={message.richContent} />
        </li>
      ))}
    </ol>
  );
}
