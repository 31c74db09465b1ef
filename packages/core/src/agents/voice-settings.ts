// An agent's voice settings and their bounds, set in the panel (Agent columns); an agent without
// a setting has the default.

/** The language tag a page may name in voice.start. */
export const VOICE_LANGUAGE_MAX_CHARS = 35;
/** Synthesis voice names (agent setting). */
export const VOICE_NAME_MAX_CHARS = 100;

/** Concurrent voice sessions per client IP and agent. */
export const VOICE_SESSIONS_PER_IP = { default: 2, min: 1, max: 100 } as const;
/** Minutes one voice session may last. */
export const VOICE_MINUTES_PER_SESSION = { default: 10, min: 1, max: 120 } as const;
/** Monthly voice minutes an agent may be given (null in the panel: unlimited). */
export const VOICE_MINUTES_PER_MONTH_MAX = 1_000_000;

export const VOICE_LIMIT_SETTINGS = {
  voiceSessionsPerIp: VOICE_SESSIONS_PER_IP,
  voiceMinutesPerSession: VOICE_MINUTES_PER_SESSION,
} as const;

export type VoiceLimitSettings = Record<keyof typeof VOICE_LIMIT_SETTINGS, number | null>;

export function effectiveVoiceLimit(settings: VoiceLimitSettings, name: keyof VoiceLimitSettings): number {
  return settings[name] ?? VOICE_LIMIT_SETTINGS[name].default;
}
