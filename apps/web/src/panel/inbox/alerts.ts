// The panel's alert settings, kept in this browser's localStorage: a sound with each alert, and
// alerts for new escalations (a visitor waiting for anyone, not only for me). Both are off until
// the person turns them on in the Alerts menu. (Settings saved before as { notify, sound } keep
// their meaning: notify was the escalation alert.)
const STORAGE_KEY = "parley.inbox.alerts";

export interface AlertSettings {
  /** Alert when any conversation asks for a person (besides those assigned to me). */
  escalations: boolean;
  /** A short chime with each alert. */
  sound: boolean;
}

export function readAlertSettings(): AlertSettings {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<AlertSettings> & { notify?: boolean };
    return { escalations: (parsed.escalations ?? parsed.notify) === true, sound: parsed.sound === true };
  } catch {
    return { escalations: false, sound: false };
  }
}

export function writeAlertSettings(settings: AlertSettings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
}

/** Two short tones made in the page (no audio file to load, nothing the CSP must allow). */
function chime(): void {
  const AudioContextClass = globalThis.AudioContext;
  if (!AudioContextClass) return;
  const audio = new AudioContextClass();
  for (const [index, frequency] of [880, 660].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, audio.currentTime + index * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + index * 0.18 + 0.16);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(audio.currentTime + index * 0.18);
    oscillator.stop(audio.currentTime + index * 0.18 + 0.17);
  }
  setTimeout(() => void audio.close(), 1_000);
}

/** The chime, when the person turned the sound on. */
export function playAlertSound(): void {
  if (readAlertSettings().sound) chime();
}

export function notificationsAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

/** The in-page event a new escalation raises when notifications are not allowed (attention.tsx shows it as a toast). */
export const ESCALATION_EVENT = "parley:escalation";

/** A new escalation: alerted only to people who asked for those (a notification if allowed, else a toast; and the sound). */
export function alertEscalation(conversationId: string): void {
  if (!readAlertSettings().escalations) return;
  playAlertSound();
  if (!notificationsAllowed()) {
    window.dispatchEvent(new CustomEvent(ESCALATION_EVENT, { detail: { conversationId } }));
    return;
  }
  const notification = new Notification("A visitor is waiting for a person", {
    body: "Open the inbox to take over.",
    tag: conversationId,
  });
  notification.onclick = () => {
    window.focus();
    window.location.assign(`/panel/conversations/${encodeURIComponent(conversationId)}`);
  };
}
