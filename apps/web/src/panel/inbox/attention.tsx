"use client";

import { visitorIdentity } from "@parley/core/browser";
// What tells a person that work waits for them: the navigation's Mine and Unassigned counts, the
// page title's count, and an alert when a conversation is assigned to them or its visitor writes
// again. All read one query (conversations.counts, core's counts.ts), which the live inbox stream
// refetches on every change (use-inbox-live.ts); its slow poll only covers a dropped stream.
// The alert is a browser notification once the person allowed them (the Alerts menu asks, only on
// that click), else an in-page toast; with the sound on, a chime too. The same menu turns on alerts
// for every new escalation (alerts.ts).
import { INBOX_ATTENTION_MAX } from "@parley/core/conversations/limits";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { withoutCount } from "../tab-title.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { CheckboxField } from "../ui/fields.tsx";
import {
  type AlertSettings,
  ESCALATION_EVENT,
  notificationsAllowed,
  playAlertSound,
  readAlertSettings,
  writeAlertSettings,
} from "./alerts.ts";

type Counts = RouterOutputs["conversations"]["counts"];

/** The counts' fallback poll while the live stream reconnects. */
const COUNTS_POLL_MS = 60_000;
/** Toasts shown at once: a new one pushes the oldest out. */
const TOASTS_MAX = 3;

const conversationPath = (id: string) => `/panel/conversations/${encodeURIComponent(id)}`;

export function useInboxCounts() {
  const trpc = useTRPC();
  return useQuery(trpc.conversations.counts.queryOptions(undefined, { refetchInterval: COUNTS_POLL_MS }));
}

/**
 * The number the page title carries: the person's own (Mine), so a tab in the background says when
 * something waits for them; the team's queue (Unassigned) is in the navigation.
 */
export function titleCount(counts: Pick<Counts, "mine"> | undefined): number {
  return counts?.mine ?? 0;
}

function NavCount({ count, label }: { count: number; label: string }) {
  if (count === 0) return null;
  return (
    <span className="nav-count" title={`${count} ${label}`}>
      {count}
      <span className="visually-hidden"> {label}</span>
    </span>
  );
}

/** Mine and Unassigned under the inbox's link, each opening its filtered list. */
export function NavQueues() {
  const counts = useInboxCounts().data;
  return (
    <span className="nav-queues">
      <Link href="/panel/conversations?assignee=mine" className="nav-queue">
        Mine
        <NavCount count={counts?.mine ?? 0} label="unread, assigned to you" />
      </Link>
      <Link href="/panel/conversations?assignee=unassigned&status=escalated" className="nav-queue">
        Unassigned
        <NavCount count={counts?.unassigned ?? 0} label="waiting for a person" />
      </Link>
    </span>
  );
}

/**
 * Prefixes the page title with the count, "(2) Conversations · Parley panel". Next.js sets the
 * title on each navigation, so the prefix is put back whenever the head changes.
 */
export function TitleCount() {
  const count = titleCount(useInboxCounts().data);
  useEffect(() => {
    const apply = () => {
      const base = withoutCount(document.title);
      const wanted = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [count]);
  return null;
}

interface Toast {
  key: string;
  conversationId: string;
  /** The visitor, as the inbox names them. */
  name: string;
  text: string;
}

type Alert = Toast;

/**
 * What changed for the person between two reads of the counts: conversations newly assigned to
 * them by someone else, and their conversations whose visitor wrote again (still unread). The
 * conversation open in front of them alerts nothing (it is being read).
 */
export function alertsBetween(
  before: ReadonlyMap<string, string | null>,
  after: Counts["assigned"],
  openConversationId: string | null,
): Alert[] {
  const alerts: Alert[] = [];
  for (const row of after) {
    if (row.id === openConversationId) continue;
    const at = row.lastVisitorMessageAt === null ? null : String(row.lastVisitorMessageAt);
    const name = visitorIdentity(row);
    if (!before.has(row.id)) {
      if (!row.selfAssigned) alerts.push({ key: `assigned:${row.id}`, conversationId: row.id, name, text: `Assigned to you: ${name}` });
    } else if (row.unread && at !== null && at !== before.get(row.id))
      alerts.push({ key: `message:${row.id}:${at}`, conversationId: row.id, name, text: `New message from ${name}` });
  }
  return alerts;
}

/** The alerts and their toasts; mounted once in the panel's navigation for people with the inbox. */
export function InboxAttention() {
  const counts = useInboxCounts().data;
  const pathname = usePathname();
  const [toasts, setToasts] = useState<Toast[]>([]);
  // Each assigned conversation's last visitor message as last seen; null until the first read
  // (what was already there when the page opened alerts nothing).
  const seen = useRef<Map<string, string | null> | null>(null);

  useEffect(() => {
    if (!counts) return;
    const openId = pathname.startsWith("/panel/conversations/") ? decodeURIComponent(pathname.split("/")[3] ?? "") : null;
    const previous = seen.current;
    const next = new Map(
      counts.assigned.map((row) => [row.id, row.lastVisitorMessageAt === null ? null : String(row.lastVisitorMessageAt)]),
    );
    // A full list may leave out older conversations: keep knowing them, so they do not alert again.
    if (previous && counts.assigned.length >= INBOX_ATTENTION_MAX) {
      for (const [id, at] of previous) if (!next.has(id)) next.set(id, at);
    }
    seen.current = next;
    if (!previous) return;
    const alerts = alertsBetween(previous, counts.assigned, document.visibilityState === "visible" ? openId : null);
    if (alerts.length === 0) return;
    playAlertSound();
    if (notificationsAllowed()) {
      for (const alert of alerts) {
        const notification = new Notification(alert.text, { tag: alert.key, body: "Open the conversation in Parley." });
        notification.onclick = () => {
          window.focus();
          window.location.assign(conversationPath(alert.conversationId));
        };
      }
      return;
    }
    setToasts((current) => {
      const fresh = alerts.filter((alert) => !current.some((toast) => toast.key === alert.key));
      // One toast per conversation: the newest news replaces the older.
      const kept = current.filter((toast) => !fresh.some((alert) => alert.conversationId === toast.conversationId));
      return [...kept, ...fresh].slice(-TOASTS_MAX);
    });
  }, [counts, pathname]);

  // New escalations (for people who asked for them) without notifications: a toast too.
  useEffect(() => {
    const onEscalation = (event: Event) => {
      const conversationId = (event as CustomEvent<{ conversationId: string }>).detail.conversationId;
      const toast = {
        key: `escalated:${conversationId}`,
        conversationId,
        name: "a waiting visitor",
        text: "A visitor is waiting for a person",
      };
      setToasts((current) => [...current.filter((item) => item.conversationId !== conversationId), toast].slice(-TOASTS_MAX));
    };
    window.addEventListener(ESCALATION_EVENT, onEscalation);
    return () => window.removeEventListener(ESCALATION_EVENT, onEscalation);
  }, []);

  const dismiss = (key: string) => setToasts((current) => current.filter((toast) => toast.key !== key));
  // Opening a conversation settles its toast.
  useEffect(() => {
    setToasts((current) => current.filter((toast) => !pathname.startsWith(conversationPath(toast.conversationId))));
  }, [pathname]);

  return (
    // One polite live region, always mounted, so each toast is announced as it appears.
    <div className="toasts" role="status" aria-label="Alerts">
      {toasts.map((toast) => (
        <div className="toast" key={toast.key}>
          <Link href={conversationPath(toast.conversationId)} className="toast-link">
            {toast.text}
          </Link>
          <button
            type="button"
            className="toast-dismiss"
            aria-label={`Dismiss the alert about ${toast.name}`}
            onClick={() => dismiss(toast.key)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

type Permission = NotificationPermission | "unsupported";

/** How alerts reach the person, in a sentence, for the browser's notification permission. */
function deliveryText(permission: Permission | null): string {
  if (permission === "granted") return "They come as browser notifications.";
  if (permission === "denied") return "Notifications are blocked in this browser's settings, so they show in the page.";
  if (permission === "unsupported") return "This browser has no notifications, so they show in the page.";
  return "They show in the page; browser notifications also reach you in another tab.";
}

/**
 * The one Alerts menu in the header: says what alerts you and how, asks the browser for
 * notifications (only on that click), and holds this browser's two options: new escalations and
 * the sound.
 */
export function AlertsControl() {
  const [permission, setPermission] = useState<Permission | null>(null);
  const [settings, setSettings] = useState<AlertSettings>({ escalations: false, sound: false });
  const menuRef = useRef<HTMLDetailsElement>(null);
  const panelId = useId();
  useEffect(() => {
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
    setSettings(readAlertSettings());
  }, []);
  // A click elsewhere closes the menu, as any menu.
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const menu = menuRef.current;
      if (menu?.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);

  const change = (next: AlertSettings) => {
    writeAlertSettings(next);
    setSettings(next);
  };
  return (
    <details
      className="alerts-menu"
      ref={menuRef}
      onKeyDown={(event) => {
        // Esc closes the menu and leaves the focus on its button.
        if (event.key !== "Escape" || !menuRef.current?.open) return;
        event.preventDefault();
        menuRef.current.open = false;
        menuRef.current.querySelector("summary")?.focus();
      }}
    >
      <summary className="btn btn-small" aria-controls={panelId}>
        Alerts
      </summary>
      <div className="alerts-menu-panel" id={panelId}>
        <p className="small">
          You get an alert when a conversation is assigned to you or its visitor writes again. {deliveryText(permission)}
        </p>
        {permission === "default" ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void Notification.requestPermission().then((answer) => setPermission(answer))}
          >
            Turn on browser notifications
          </button>
        ) : null}
        <CheckboxField
          label="Also alert me to every new escalation"
          checked={settings.escalations}
          onChange={(event) => change({ ...settings, escalations: event.target.checked })}
        />
        <CheckboxField
          label="Play a sound with alerts"
          checked={settings.sound}
          onChange={(event) => change({ ...settings, sound: event.target.checked })}
        />
      </div>
    </details>
  );
}

/**
 * Marks the open conversation read for the person: when it shows, and again whenever the visitor's
 * last message changes while it is open (a hidden tab waits until it is seen).
 */
export function useMarkRead(conversationId: string, lastVisitorMessageAt: string | null | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const markRead = useMutation(
    trpc.conversations.markRead.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.conversations.counts.pathFilter());
        void queryClient.invalidateQueries(trpc.conversations.list.pathFilter());
      },
    }),
  );
  const mutate = markRead.mutate;
  useEffect(() => {
    if (lastVisitorMessageAt === undefined) return;
    const mark = () => mutate({ id: conversationId });
    if (document.visibilityState === "visible") {
      mark();
      return;
    }
    const onVisible = () => {
      if (document.visibilityState !== "visible") return;
      document.removeEventListener("visibilitychange", onVisible);
      mark();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [conversationId, lastVisitorMessageAt, mutate]);
}
