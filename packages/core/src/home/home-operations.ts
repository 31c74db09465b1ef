// The panel's home page (the `home` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, moment } from "../platform/panel-outputs.ts";
import { panelHome } from "./home.ts";

const dayCounts = z.object({ conversations: count, turns: count });

export const panelHomeOutput = z.object({
  waiting: z.object({
    count,
    oldest: z.array(
      z.object({
        conversationId: id,
        agentName: z.string(),
        visitorName: z.string().nullable(),
        visitorEmail: z.string().nullable(),
        firstPageUrl: z.string().nullable(),
        escalatedAt: moment,
        /** Since when the visitor has waited for a person's reply; null once a person answered. */
        waitingSince: moment.nullable(),
      }),
    ),
  }),
  activity: z.array(z.object({ agentId: id, agentName: z.string(), today: dayCounts, week: dayCounts, unanswered: count })),
  /** The visitors' ratings given or changed in the last seven days (UTC), by value. */
  ratingsThisWeek: z.object({ good: count, okay: count, bad: count }),
  unansweredThisWeek: count,
  nearQuota: z.array(
    z.object({
      agentId: id,
      agentName: z.string(),
      measure: z.enum(["conversations", "tokens", "turns"]),
      used: count,
      limit: count,
    }),
  ),
  month: z.string(),
  gettingStarted: z.object({
    keyGenerated: z.boolean(),
    articlePublished: z.boolean(),
    widgetEmbedded: z.boolean(),
    webhookAdded: z.boolean(),
    agentId: id.nullable(),
  }),
});

const panel = panelOperationsOver<PlatformContext>();

export const homeOperations = {
  /** The panel's home page, in one call: waiting escalations, activity, unanswered, quotas, checklist. */
  get: panel.query({
    permission: "home.read",
    output: panelHomeOutput,
    run: ({ app, scope }) => panelHome(app.db, scope, app.now()),
  }),
};
