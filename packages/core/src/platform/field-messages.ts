// What a form says about a field it refused, written for the person filling it in. zod's own texts
// ("Too small: expected string to have >=1 characters") are for developers; a message an input
// schema wrote on purpose ("Use https://") is kept as it is.
import type { z } from "zod";
import { en } from "zod/locales";

type Issue = z.core.$ZodIssue;

const zodDefault = en().localeError;

/** True when the issue carries zod's built-in English text, not one a schema chose. */
function isZodDefault(issue: Issue): boolean {
  if (issue.code === "invalid_type") return issue.message.startsWith("Invalid input:");
  const fallback = zodDefault(issue as Parameters<typeof zodDefault>[0]);
  const text = typeof fallback === "string" ? fallback : fallback?.message;
  return text === issue.message;
}

function plural(count: number | bigint, one: string, many: string): string {
  return `${Number(count).toLocaleString("en-US")} ${Number(count) === 1 ? one : many}`;
}

function sizeMessage(issue: Issue): string | null {
  if (issue.code === "too_small") {
    const least = issue.inclusive === false ? Number(issue.minimum) + 1 : Number(issue.minimum);
    if (issue.origin === "string")
      return least <= 1 ? "Fill this in: it can't be empty." : `Use at least ${plural(least, "character", "characters")}.`;
    if (issue.origin === "array" || issue.origin === "set") return least <= 1 ? "Choose at least one." : `Choose at least ${least}.`;
    if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return `Enter ${least} or more.`;
  }
  if (issue.code === "too_big") {
    const most = issue.inclusive === false ? Number(issue.maximum) - 1 : Number(issue.maximum);
    if (issue.origin === "string") return `Use at most ${plural(most, "character", "characters")}.`;
    if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${most}.`;
    if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return `Enter ${most} or less.`;
  }
  return null;
}

function formatMessage(issue: Issue): string | null {
  if (issue.code !== "invalid_format") return null;
  if (issue.format === "email") return "Enter an email address, like name@example.com.";
  if (issue.format === "url") return "Enter a full address, starting with https://.";
  return "This is not in the expected form.";
}

/** The person's message for one refused field. */
export function fieldMessage(issue: Issue): string {
  if (!isZodDefault(issue)) return issue.message;
  const sized = sizeMessage(issue) ?? formatMessage(issue);
  if (sized) return sized;
  switch (issue.code) {
    case "invalid_type":
      if (issue.message.endsWith("received undefined") || issue.message.endsWith("received null")) return "Fill this in.";
      if (issue.expected === "number" || issue.expected === "int") return "Enter a whole number.";
      return "This value can't be used here.";
    case "invalid_value":
      return "Choose one of the options.";
    case "not_multiple_of":
      return `Enter a multiple of ${issue.divisor}.`;
    default:
      return "This value can't be used here.";
  }
}
