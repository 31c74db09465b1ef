"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format.ts";

interface Day {
  date: string;
  conversations: number;
  tokens: number;
}

/** "2026-11-05" -> "Nov 5" (days are UTC dates). */
function shortDate(date: string): string {
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" }).format(parsed);
}

/**
 * Conversations as bars on the left axis, tokens as a line on the right: their scales differ a lot.
 * No animation: the numbers should be readable at once (and motion is not everyone's friend).
 */
export function DailyChart({ data }: { data: Day[] }) {
  return (
    <figure className="chart" aria-label="Chart of conversations and tokens per day">
      <ResponsiveContainer width="100%" height={300}>
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={shortDate}
            stroke="var(--muted)"
            tick={{ fill: "var(--muted)", fontSize: 12 }}
            minTickGap={16}
          />
          <YAxis
            yAxisId="conversations"
            allowDecimals={false}
            stroke="var(--muted)"
            tick={{ fill: "var(--muted)", fontSize: 12 }}
            width={40}
          />
          <YAxis
            yAxisId="tokens"
            orientation="right"
            allowDecimals={false}
            stroke="var(--muted)"
            tick={{ fill: "var(--muted)", fontSize: 12 }}
            tickFormatter={(value: number) => formatNumber(value)}
            width={64}
          />
          <Tooltip
            labelFormatter={(label) => shortDate(String(label))}
            formatter={(value) => formatNumber(Number(value))}
            contentStyle={{ background: "var(--bg)", border: "1px solid var(--border)", color: "var(--fg)" }}
            cursor={{ fill: "var(--panel)" }}
          />
          <Legend wrapperStyle={{ color: "var(--fg)" }} />
          <Bar
            yAxisId="conversations"
            dataKey="conversations"
            name="Conversations"
            fill="var(--chart-conversations)"
            radius={[3, 3, 0, 0]}
            isAnimationActive={false}
          />
          <Line
            yAxisId="tokens"
            dataKey="tokens"
            name="Tokens"
            type="monotone"
            stroke="var(--chart-tokens)"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
