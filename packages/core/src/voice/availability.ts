// What voice this instance can offer, as the agent settings form shows it: whether visitors can
// be heard (recognition) and which synthesis voices an agent may pick. Names only: no engine
// handle or endpoint address leaves core.
import type { VoiceContext } from "./context.ts";

export interface VoiceAvailability {
  /** The recognition engine's name; null: none on this instance, so no visitor can talk. */
  recognition: string | null;
  /** The synthesis engine's name ("none" on an instance built without speech engines). */
  synthesis: string;
  /** The voices it offers, the default first. */
  voices: string[];
}

export function voiceAvailability(ctx: Pick<VoiceContext, "speech">): VoiceAvailability {
  const speech = ctx.speech;
  return {
    recognition: speech?.stt?.name ?? null,
    synthesis: speech?.tts.name ?? "none",
    voices: speech ? [...speech.tts.voices] : [],
  };
}
