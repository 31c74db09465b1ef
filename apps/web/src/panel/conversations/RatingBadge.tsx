"use client";

import { Badge } from "../ui/status.tsx";

export type RatingValue = "good" | "okay" | "bad";

export const RATING_LABELS: Record<RatingValue, string> = { good: "Good", okay: "Okay", bad: "Bad" };
const TONES = { good: "good", okay: "neutral", bad: "bad" } as const;

/** How the visitor rated the conversation after it was resolved (widget). */
export function RatingBadge({ rating }: { rating: RatingValue }) {
  return <Badge tone={TONES[rating]}>Rated {RATING_LABELS[rating].toLowerCase()}</Badge>;
}
