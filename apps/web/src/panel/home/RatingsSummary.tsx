"use client";

import Link from "next/link";
import { formatNumber } from "../format.ts";
import type { RouterOutputs } from "../trpc.ts";

type Ratings = RouterOutputs["home"]["get"]["ratingsThisWeek"];

const ROWS = [
  ["good", "Good"],
  ["okay", "Okay"],
  ["bad", "Bad"],
] as const;

/**
 * How visitors rated their resolved conversations over the last seven days (UTC): each value's
 * count (a link to the inbox filtered by it) and its share of the week's ratings.
 */
export function RatingsSummary({ ratings }: { ratings: Ratings }) {
  const total = ratings.good + ratings.okay + ratings.bad;
  return (
    <section aria-labelledby="home-ratings-heading" className="card">
      <h2 id="home-ratings-heading">Visitor ratings, last 7 days</h2>
      {total === 0 ? (
        <p className="muted">No ratings yet. When a person resolves a widget conversation, the widget asks the visitor how it went.</p>
      ) : (
        <>
          <p className="home-figure">
            <strong>{Math.round((ratings.good / total) * 100)}%</strong> rated good, of {formatNumber(total)}{" "}
            {total === 1 ? "rating" : "ratings"}
          </p>
          <ul className="home-ratings">
            {ROWS.map(([value, label]) => (
              <li key={value}>
                <Link href={`/panel/conversations?rating=${value}`}>
                  {label}: <strong>{formatNumber(ratings[value])}</strong>
                </Link>{" "}
                <span className="muted small">({Math.round((ratings[value] / total) * 100)}%)</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
