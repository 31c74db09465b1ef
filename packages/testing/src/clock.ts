// Rate limits are sliding windows over fixed windows (@upstash/ratelimit's algorithm): a burst that
// crosses a fixed window's edge counts its earlier part a little less (rounded down), so a test that
// uses up a budget and expects the next request refused would fail now and then. Such tests freeze
// the clock one second into a window.
import { vi } from "vitest";

/** Freezes Date (only Date: timers and the thread pool run as usual) 1 s into the current fixed window. */
export function freezeClockAtWindowStart(windowSeconds: number): void {
  const windowMs = windowSeconds * 1000;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.floor(Date.now() / windowMs) * windowMs + 1000);
}
