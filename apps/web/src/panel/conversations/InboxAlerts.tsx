"use client";

import { useEffect, useState } from "react";
import { type AlertSettings, readAlertSettings, writeAlertSettings } from "../inbox/alerts.ts";

/** Optional alerts for new escalations in this browser: a notification and a sound. */
export function InboxAlerts() {
  const [settings, setSettings] = useState<AlertSettings>({ notify: false, sound: false });
  const [denied, setDenied] = useState(false);
  useEffect(() => setSettings(readAlertSettings()), []);

  async function change(next: AlertSettings) {
    if (next.notify && !settings.notify && typeof Notification !== "undefined" && Notification.permission !== "granted") {
      const permission = await Notification.requestPermission();
      setDenied(permission !== "granted");
      if (permission !== "granted") next = { ...next, notify: false };
    }
    writeAlertSettings(next);
    setSettings(next);
  }

  return (
    <fieldset className="inbox-alerts">
      <legend className="visually-hidden">Alerts for new escalations</legend>
      <span className="muted">New escalation:</span>
      <label>
        <input type="checkbox" checked={settings.notify} onChange={(event) => void change({ ...settings, notify: event.target.checked })} />
        Browser notification
      </label>
      <label>
        <input type="checkbox" checked={settings.sound} onChange={(event) => void change({ ...settings, sound: event.target.checked })} />
        Sound
      </label>
      {denied ? <span className="status-error">Notifications are blocked in this browser's settings.</span> : null}
    </fieldset>
  );
}
