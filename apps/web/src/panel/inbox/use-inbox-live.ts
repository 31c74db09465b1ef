"use client";

import { INBOX_LIVE_REFRESH_MS } from "@parley/core/conversations/limits";
// The panel's live inbox: one EventSource per tab on /api/panel/events. Each event names a
// conversation that changed; the list, that conversation and the counts are refetched.
// A new escalation also plays the alerts the person turned on.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "../trpc.ts";
import { alertEscalation } from "./alerts.ts";

export const INBOX_EVENTS_PATH = "/api/panel/events";

export type LiveState = "connecting" | "live" | "offline";

export function useInboxLive(): LiveState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");

  useEffect(() => {
    // A busy inbox sends many events a second: the lists (each loaded page, searches included)
    // are refetched once for all of them, at most every INBOX_LIVE_REFRESH_MS.
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    let lastRefresh = 0;
    const refresh = () => {
      refreshTimer = undefined;
      lastRefresh = Date.now();
      void queryClient.invalidateQueries(trpc.conversations.list.pathFilter());
      void queryClient.invalidateQueries(trpc.conversations.waiting.pathFilter());
      void queryClient.invalidateQueries(trpc.conversations.counts.pathFilter());
    };
    const refreshLists = () => {
      if (refreshTimer) return;
      refreshTimer = setTimeout(refresh, Math.max(0, lastRefresh + INBOX_LIVE_REFRESH_MS - Date.now()));
    };
    const source = new EventSource(INBOX_EVENTS_PATH);
    source.onopen = () => setState("live");
    // EventSource reconnects by itself; while it does, the screens' slow polling covers the gap.
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    source.addEventListener("inbox", (message) => {
      let event: { conversationId?: string; escalated?: boolean };
      try {
        event = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      refreshLists();
      if (event.conversationId) void queryClient.invalidateQueries(trpc.conversations.get.queryFilter({ id: event.conversationId }));
      if (event.escalated && event.conversationId) alertEscalation(event.conversationId);
    });
    return () => {
      source.close();
      if (refreshTimer) clearTimeout(refreshTimer);
    };
  }, [queryClient, trpc]);

  return state;
}
