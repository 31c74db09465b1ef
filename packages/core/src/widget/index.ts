// The widget / SDK channel (protocol parley.v1): frames, sessions, resume tokens and live events.

export {
  createLiveBus,
  createMemoryLiveBus,
  createRedisLiveBus,
  inboxChannel,
  type LiveBus,
  type LiveEvent,
  publishInbox,
  publishLive,
} from "../conversations/live.ts";
export { type WidgetConfig, type WidgetSuggestion, widgetConfig } from "./config.ts";
export {
  CLOSE_CODES,
  type ClientFrame,
  parseClientFrame,
  type ServerFrame,
  WIDGET_SUBPROTOCOL,
  type WireMessage,
} from "./protocol.ts";
export { createResumeTokens, type ResumeClaims, type ResumeTokens } from "./resume.ts";
export { isOriginAllowed, WidgetSession, type WidgetSessionOptions, type WidgetTransport } from "./session.ts";
