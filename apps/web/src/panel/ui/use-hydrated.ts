import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server HTML and during hydration, true once React runs in the browser. Buttons stay
 * disabled until then: a click before hydration would submit the form natively (a GET with the
 * fields in the URL) instead of running its handler.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
