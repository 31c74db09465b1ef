"use client";

import type { ComponentProps, ReactNode } from "react";
import { useHydrated } from "./use-hydrated.ts";

type Variant = "primary" | "secondary" | "danger";

interface ActionButtonProps extends ComponentProps<"button"> {
  variant?: Variant;
  /** While true the button is disabled and shows `pendingLabel` instead of its text. */
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
  ...rest
}: ActionButtonProps) {
  const hydrated = useHydrated();
  return (
    <button
      type={type}
      className={["btn", `btn-${variant}`, className].filter(Boolean).join(" ")}
      disabled={disabled || pending || !hydrated}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
