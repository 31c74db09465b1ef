// What a voice session needs besides a conversation's context: the speech engines.
import type { ConversationContext } from "../conversations/context.ts";
import type { SpeechEngines } from "./speech.ts";

export interface VoiceContext extends ConversationContext {
  /** Speech engines for voice over the widget socket. Absent: no voice on this instance. */
  speech?: SpeechEngines;
}
