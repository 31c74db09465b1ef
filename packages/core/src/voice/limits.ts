// Voice limits: what one voice session may send and hold. The per-agent settings and their bounds
// are the agent's (agents/voice-settings.ts).

/** Sample rates a page may send and receive (PCM16 mono). */
export const VOICE_SAMPLE_RATES = [16_000, 24_000, 48_000] as const;
/** One audio frame (binary, or voice.append) holds at most this much audio at the declared rate. */
export const VOICE_FRAME_MAX_MS = 100;
/** …and at least this much: a flood of tiny frames costs the server per frame, not per sample. */
export const VOICE_FRAME_MIN_MS = 10;
/** Audio frames buffered while voice.start is being checked (a page may send audio right after it). */
export const VOICE_START_BUFFER_FRAMES = 50;
/** An error frame about audio is sent at most once a second per kind (a bad client gets no flood back). */
export const VOICE_AUDIO_ERROR_INTERVAL_MS = 1_000;
/** A visitor waits at most this long for their words to be recognised (queue included). */
export const VOICE_RECOGNITION_TIMEOUT_MS = 20_000;
/**
 * Audio may arrive at most 1.5 times faster than real time: a leaky bucket that drains 1.5 ms of
 * audio per ms and holds this much, so network jitter's bursts pass and a file blasted at full
 * speed does not.
 */
export const VOICE_INPUT_SPEED_MAX = 1.5;
export const VOICE_INPUT_BURST_MS = 1_000;
/** One utterance (from speech start, or the push-to-talk buffer) may last this long. */
export const VOICE_UTTERANCE_MAX_MS = 30_000;
/** Audio kept before the detected start of speech, so the first word is not clipped. */
export const VOICE_LEAD_IN_MS = 300;
/** Silence after speech that ends the visitor's turn (server VAD). */
export const VOICE_END_OF_SPEECH_MS = 600;
/** Speech shorter than this is a noise, not a turn (and does not interrupt a reply). */
export const VOICE_MIN_SPEECH_MS = 200;
/** A window with this probability of speech or more counts as speech. */
export const VOICE_SPEECH_THRESHOLD = 0.5;
/** After a barge-in, how long the page has to say how much of the reply it played (voice.interrupt). */
export const VOICE_PLAYED_MS_WAIT_MS = 1_500;
/** Reply audio is sent in frames of this length. */
export const VOICE_OUTPUT_FRAME_MS = 100;
/** Base64 characters of one voice.append frame: 100 ms at 48 kHz PCM16, encoded. */
export const VOICE_APPEND_MAX_CHARS = Math.ceil(((48_000 * 2 * VOICE_FRAME_MAX_MS) / 1000 / 3) * 4) + 4;

/**
 * Voice sessions one instance holds at once, all agents together: recognition runs on this
 * machine's cores (or waits on the endpoint), so past this a new session is refused rather than
 * slowing every one. Scale out for more (the bench measures what two cores hold).
 */
export const VOICE_SESSIONS_PER_INSTANCE = 64;
