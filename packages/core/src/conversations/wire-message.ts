// A message as the widget, the live bus and the panel's live view receive it: one shape for a
// stored row, whichever channel it is sent on.
import type { RichContentItem, ToolCall } from "../engine/types.ts";
import { renderMessageHtml } from "../platform/markdown.ts";

/** A message as the widget shows it. */
export interface WireMessage {
  id: string;
  role: "user" | "agent" | "human";
  text: string;
  richContent: RichContentItem[];
  toolCalls: ToolCall[];
  createdAt: string;
  /** Spoken (voice mode): the visitor's transcript or a reply read aloud. Absent: typed. */
  voice?: true;
  /** A spoken reply the visitor cut short: `text` is what was played. */
  interrupted?: true;
  /**
   * Agent and team replies: `text` as sanitised HTML (@parley/core/markdown, the help centre's
   * renderer and sanitiser). A widget that shows Markdown renders this, never its own parse of text.
   */
  html?: string;
}

export function toWireMessage(row: {
  id: string;
  role: "user" | "agent" | "human";
  text: string;
  richContent: unknown;
  toolCalls: unknown;
  createdAt: Date;
  voice?: boolean;
  interrupted?: boolean;
}): WireMessage {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    ...(row.voice ? { voice: true as const } : {}),
    ...(row.interrupted ? { interrupted: true as const } : {}),
    ...(row.role === "user" ? {} : { html: renderMessageHtml(row.text) }),
    richContent: Array.isArray(row.richContent) ? (row.richContent as RichContentItem[]) : [],
    toolCalls: Array.isArray(row.toolCalls) ? (row.toolCalls as ToolCall[]) : [],
    createdAt: row.createdAt.toISOString(),
  };
}

/** The visitor's rating of a resolved conversation's latest resolution, as the widget shows it (rating.ts). */
export interface WireRating {
  rating: "good" | "okay" | "bad";
  comment: string | null;
  /** When they first rated this resolution (ISO 8601). */
  ratedAt: string;
  /** Until when they may change it (ISO 8601). */
  changeableUntil: string;
}

/** While a conversation is resolved: the closing line, and the visitor's rating so far (null: not rated yet). */
export interface WireClosing {
  notice: string;
  rating: WireRating | null;
}
