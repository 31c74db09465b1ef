// What the conversation operations need besides the platform: the engine that answers for an
// agent, and the live bus to connected widgets and panels.
import type { Engine, EngineAgent } from "../engine/types.ts";
import type { PlatformContext } from "../platform/context.ts";
import type { LiveBus } from "./live.ts";

export interface ConversationContext extends PlatformContext {
  /** The engine that answers for this agent. */
  engineFor(agent: EngineAgent): Engine;
  /** Live events to connected widget visitors and open panels (replies, status changes). Absent: none. */
  live?: LiveBus;
}
