// Marks of a spoken message in a transcript: a "Voice" badge (read out as "Spoken") on what the
// visitor said or the agent read aloud, and a note on a reply the visitor cut short by talking
// (its text is what was played).

/** A microphone, drawn with the text colour. */
function MicrophoneIcon() {
  return (
    <svg className="voice-mark-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <rect x="5.5" y="1" width="5" height="9" rx="2.5" fill="currentColor" />
      <path d="M3 7.5a5 5 0 0 0 10 0M8 12.5V15" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

export function SpokenBadge() {
  return (
    <span className="badge badge-neutral voice-mark" role="img" aria-label="Spoken" title="Spoken">
      <MicrophoneIcon />
      Voice
    </span>
  );
}

export function InterruptedNote() {
  return (
    <p className="voice-interrupted">
      <strong>Interrupted</strong>: the reply was cut short (the visitor spoke over it or stopped it); the text is what they heard.
    </p>
  );
}
