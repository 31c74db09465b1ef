// The webhook events of one turn (widget and SDK channel): conversation.created for a new
// conversation, conversation.message with the visitor's message and the agent's reply, and
// conversation.escalated (+ conversation.status_changed on an existing conversation) when the turn
// asked for a person.
import type { EngineResult } from "../../engine/types.ts";
import {
  type ConversationRef,
  conversationCreated,
  conversationEscalated,
  conversationMessage,
  conversationStatusChanged,
  type WebhookEventInput,
} from "../../webhooks/events.ts";

export function turnEvents(turn: {
  conversation: ConversationRef;
  created: boolean;
  previousStatus: ConversationRef["status"] | null;
  /** The turn escalated the conversation (it asked for a person). */
  escalated: boolean;
  /** A new conversation's clientVariables, as stored. */
  clientVariables: Record<string, string>;
  userText: string;
  result: EngineResult;
  /** Where the visitor's message came from: typed in the widget / SDK, or spoken. */
  channel: "widget" | "voice";
  firstSequence: number;
  now: Date;
}): WebhookEventInput[] {
  const { conversation, result, now } = turn;
  const events: WebhookEventInput[] = [];
  if (turn.created) events.push(conversationCreated(conversation, { clientVariables: turn.clientVariables, createdAt: now }));
  events.push(
    conversationMessage(
      conversation,
      [
        { role: "user", text: turn.userText, sequence: turn.firstSequence, createdAt: now },
        {
          role: "agent",
          text: result.reply,
          sequence: turn.firstSequence + 1,
          createdAt: now,
          tokenUsage: result.tokenUsage,
          toolCalls: result.toolCalls,
          richContent: result.richContent,
        },
      ],
      { handoffRequested: result.handoffRequested, channel: turn.channel },
    ),
  );
  if (turn.escalated) {
    events.push(conversationEscalated(conversation));
    if (turn.previousStatus !== null && turn.previousStatus !== "escalated") {
      events.push(conversationStatusChanged(conversation, turn.previousStatus, "turn"));
    }
  }
  return events;
}
