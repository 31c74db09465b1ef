"use client";

import type { ComponentProps, ReactNode } from "react";
import { useHydrated } from "./use-hydrated.ts";

type Variant = "primary" | "secondary" | "danger";

interface ActionButtonProps extends ComponentProps<"button"> {
  variant?: Variant;
  /** While true the button does nothing (aria-disabled, keeping focus) and shows `pendingLabel` instead of its text. */
  pending?: boolean;
  pendingLabel?: string;
  children: ReactNode;
}

export function ActionButton({
  variant = "secondary",
  pending = false,
  pendingLabel = "Saving…",
  disabled,
  className,
  type = "button",
  children,
  onClick,
  ...rest
}: ActionButtonProps) {
  const hydrated = useHydrated();
  // While pending it is disabled by aria-disabled, not the attribute: a focused button that turns
  // disabled drops the keyboard focus to the page, and the person clicked Save to carry on from it.
  return (
    <button
      type={type}
      className={["btn", `btn-${variant}`, className].filter(Boolean).join(" ")}
      disabled={(disabled && !pending) || !hydrated}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        // No second submit or action while the first is on its way (Enter in a field clicks it too).
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
      {...rest}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
