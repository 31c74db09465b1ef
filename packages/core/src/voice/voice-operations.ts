// The agent settings' Voice section (a procedure of the `agents` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import { voiceAvailability } from "./availability.ts";
import type { VoiceContext } from "./context.ts";

/** What voice this server offers: recognition's engine (null: visitors cannot talk), synthesis and its voices. */
export const voiceAvailabilityOutput = z.object({
  recognition: z.string().nullable(),
  synthesis: z.string(),
  voices: z.array(z.string()),
});

const panel = panelOperationsOver<VoiceContext>();

export const agentVoiceOperations = {
  /** The speech engines of this server, for the settings' Voice section: recognition, synthesis voices. */
  voiceAvailability: panel.query({
    permission: "agents.read",
    output: voiceAvailabilityOutput,
    run: ({ app }) => voiceAvailability(app),
  }),
};
