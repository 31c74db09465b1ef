"use server";

// The help article page's one write: a visitor's "Was this helpful?" answer. The rules (the
// article must be visible, one vote per visitor and day, the per-IP budget) are core's.
import { isAppError } from "@parley/core";
import { articleFeedbackInput, voteOnArticle } from "@parley/core/help";
import { headers } from "next/headers";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";

export type FeedbackState = { status: "idle" } | { status: "thanks"; helpful: boolean } | { status: "error"; message: string };

export async function articleFeedbackAction(_previous: FeedbackState, form: FormData): Promise<FeedbackState> {
  const parsed = articleFeedbackInput.safeParse({
    agentId: form.get("agentId"),
    articleId: form.get("articleId"),
    helpful: form.get("helpful") === "yes" ? true : form.get("helpful") === "no" ? false : undefined,
  });
  if (!parsed.success) return { status: "error", message: "Choose Yes or No." };
  const ctx = await getAppContext();
  try {
    const clientIp = requestClientIp({ headers: await headers() }, ctx.trustProxy);
    const { helpful } = await voteOnArticle(ctx, { ...parsed.data, clientIp });
    return { status: "thanks", helpful };
  } catch (error) {
    if (isAppError(error) && error.code === "RATE_LIMITED")
      return { status: "error", message: "Too many answers. Please try again in a minute." };
    if (isAppError(error)) return { status: "error", message: "This article is no longer available." };
    throw error;
  }
}
