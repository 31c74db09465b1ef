// The panel's optional alerts for a new escalation: a browser notification and a short sound. Both
// are off until the person turns them on (kept in this browser's localStorage).
const STORAGE_KEY = "parley.inbox.alerts";

export interface AlertSettings {
  notify: boolean;
  sound: boolean;
}

export function readAlertSettings(): AlertSettings {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<AlertSettings>;
    return { notify: parsed.notify === true, sound: parsed.sound === true };
  } catch {
    return { notify: false, sound: false };
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

/** A new escalation: the alerts the person turned on. */
export function alertEscalation(conversationId: string): void {
  const settings = readAlertSettings();
  if (settings.sound) chime();
  if (settings.notify && typeof Notification !== "undefined" && Notification.permission === "granted") {
    const notification = new Notification("A visitor is waiting for a person", {
      body: "Open the inbox to take over.",
      tag: conversationId,
    });
    notification.onclick = () => {
      window.focus();
      window.location.assign(`/panel/conversations/${encodeURIComponent(conversationId)}`);
    };
  }
}
