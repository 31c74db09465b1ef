"use client";

import { formatDateTime } from "../format.ts";
import { RATING_LABELS, type RatingValue } from "./RatingBadge.tsx";

interface RatedConversation {
  status: string;
  channel: string;
  rating: { rating: RatingValue; comment: string | null; createdAt: string | Date; updatedAt: string | Date } | null;
}

/**
 * The visitor's rating, asked by the widget when a person resolves the conversation: the value,
 * their words, when. Without one it says whether the visitor was asked.
 */
export function RatingCard({ conversation }: { conversation: RatedConversation }) {
  const { rating } = conversation;
  return (
    <section aria-labelledby="rating-heading" className="card">
      <h2 id="rating-heading">Visitor's rating</h2>
      {rating ? (
        <>
          <p className={`rating-value rating-${rating.rating}`}>
            <strong>{RATING_LABELS[rating.rating]}</strong>
          </p>
          {rating.comment ? <blockquote className="rating-comment">{rating.comment}</blockquote> : null}
          <p className="muted small">
            Rated {formatDateTime(rating.createdAt)}
            {/* Words added a moment after the click are not a change worth a second time. */}
            {formatDateTime(rating.updatedAt) !== formatDateTime(rating.createdAt) ? ` · changed ${formatDateTime(rating.updatedAt)}` : ""}
          </p>
        </>
      ) : (
        <p className="muted">
          {conversation.channel !== "widget"
            ? "Not rated: visitors rate in the widget."
            : conversation.status === "resolved"
              ? "Not rated yet. The widget asked the visitor when the conversation was resolved."
              : "Not rated. The widget asks the visitor when a person resolves the conversation."}
        </p>
      )}
    </section>
  );
}
