// The control panel's API: one router per noun, built from the panel operations core's modules
// declare (each with its permission, input, output and the call it makes).

import { agentOperations, keyOperations } from "@parley/core/agents";
import {
  agentConversationOperations,
  conversationOperations,
  savedReplyOperations,
  visitorDataOperations,
} from "@parley/core/conversations";
import { homeOperations } from "@parley/core/home";
import { agentSearchOperations, articleOperations, importOperations, sourceOperations } from "@parley/core/knowledge";
import { accountOperations, auditOperations, peopleOperations, teamOperations } from "@parley/core/people";
import { usageOperations } from "@parley/core/usage";
import { agentVoiceOperations } from "@parley/core/voice";
import { webhookOperations } from "@parley/core/webhooks";
import { routerFrom } from "./router-from.ts";
import { createCallerFactory, createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  home: routerFrom(homeOperations),
  agents: routerFrom({ ...agentOperations, ...agentSearchOperations, ...agentVoiceOperations, ...agentConversationOperations }),
  keys: routerFrom(keyOperations),
  sources: routerFrom(sourceOperations),
  articles: routerFrom(articleOperations),
  imports: routerFrom(importOperations),
  conversations: routerFrom(conversationOperations),
  savedReplies: routerFrom(savedReplyOperations),
  team: routerFrom(teamOperations),
  usage: routerFrom(usageOperations),
  webhooks: routerFrom(webhookOperations),
  people: routerFrom(peopleOperations),
  account: routerFrom(accountOperations),
  audit: routerFrom(auditOperations),
  visitorData: routerFrom(visitorDataOperations),
});

export type AppRouter = typeof appRouter;

/** Calls procedures directly (tests, server components): `createCaller(createTRPCContext(...))`. */
export const createCaller = createCallerFactory(appRouter);
