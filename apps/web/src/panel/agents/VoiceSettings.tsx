"use client";
// The agent settings' Voice section: voice on or off, the synthesis voice and the language. What
// the server can do comes from its speech engines (agents.voiceAvailability): without recognition
// visitors cannot talk, which the section says plainly (the toggle still saves).

import { LANGUAGE_CODES, LANGUAGE_NAMES, type LanguageCode } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc.ts";
import { CheckboxField, SelectField } from "../ui/fields.tsx";

export const NO_RECOGNITION_NOTICE =
  "Speech recognition is not set up on this server: install PocketSphinx (apt-get install pocketsphinx pocketsphinx-en-us) or set SPEECH_BASE_URL. Visitors cannot talk until then.";

export interface VoiceValues {
  voiceEnabled: boolean;
  /** "" is the engine's default voice. */
  voiceName: string;
  voiceLanguage: string;
}

function languageName(code: string): string {
  return (LANGUAGE_CODES as readonly string[]).includes(code) ? LANGUAGE_NAMES[code as LanguageCode] : code;
}

export function VoiceSettings({
  values,
  errors,
  onChange,
}: {
  values: VoiceValues;
  errors: Record<string, string | undefined>;
  onChange(values: Partial<VoiceValues>): void;
}) {
  const trpc = useTRPC();
  const availability = useQuery(trpc.agents.voiceAvailability.queryOptions());
  const voices = availability.data?.voices ?? [];
  // A saved voice this server no longer offers stays choosable, named as such.
  const savedElsewhere = values.voiceName !== "" && availability.isSuccess && !voices.includes(values.voiceName);
  const languages: string[] = [...LANGUAGE_CODES];
  if (!languages.includes(values.voiceLanguage)) languages.push(values.voiceLanguage);

  return (
    <fieldset>
      <legend>Voice</legend>
      {availability.data && availability.data.recognition === null ? <p className="notice notice-warn">{NO_RECOGNITION_NOTICE}</p> : null}
      <CheckboxField
        label="Voice enabled"
        name="voiceEnabled"
        checked={values.voiceEnabled}
        onChange={(event) => onChange({ voiceEnabled: event.target.checked })}
        error={errors.voiceEnabled}
        hint="Visitors may talk to the agent in the widget and SDK and hear its replies. Only the words are kept, as the conversation's text: audio is never stored."
      />
      <SelectField
        label="Synthesis voice"
        name="voiceName"
        value={values.voiceName}
        onChange={(event) => onChange({ voiceName: event.target.value })}
        error={errors.voiceName}
        hint={
          availability.isError
            ? "The server's voices could not be loaded."
            : availability.data
              ? `The voice the agent's replies are read aloud in, by ${availability.data.synthesis}. Default: the engine's first voice.`
              : "Loading the server's voices…"
        }
      >
        <option value="">Default{voices[0] ? ` (${voices[0]})` : ""}</option>
        {voices.map((voice) => (
          <option key={voice} value={voice}>
            {voice}
          </option>
        ))}
        {savedElsewhere ? <option value={values.voiceName}>{values.voiceName} (not offered by this server)</option> : null}
        {!availability.isSuccess && values.voiceName !== "" ? <option value={values.voiceName}>{values.voiceName}</option> : null}
      </SelectField>
      <SelectField
        label="Language"
        name="voiceLanguage"
        value={values.voiceLanguage}
        onChange={(event) => onChange({ voiceLanguage: event.target.value })}
        error={errors.voiceLanguage}
        hint="The language visitors speak and hear. The embedded speech engines understand and speak English only: other languages need a speech service (SPEECH_BASE_URL)."
      >
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code)}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}
