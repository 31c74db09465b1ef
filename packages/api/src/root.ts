// The control panel's API: one router per screen, each procedure one call into packages/core.
import { sourceOperations } from "@parley/core/knowledge";
import { routerFrom } from "./router-from.ts";
import { accountRouter } from "./routers/account.ts";
import { agentsRouter } from "./routers/agents.ts";
import { articlesRouter } from "./routers/articles.ts";
import { auditRouter } from "./routers/audit.ts";
import { conversationsRouter } from "./routers/conversations.ts";
import { homeRouter } from "./routers/home.ts";
import { importsRouter } from "./routers/imports.ts";
import { keysRouter } from "./routers/keys.ts";
import { peopleRouter } from "./routers/people.ts";
import { savedRepliesRouter } from "./routers/saved-replies.ts";
import { teamRouter } from "./routers/team.ts";
import { usageRouter } from "./routers/usage.ts";
import { visitorDataRouter } from "./routers/visitor-data.ts";
import { webhooksRouter } from "./routers/webhooks.ts";
import { createCallerFactory, createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  home: homeRouter,
  agents: agentsRouter,
  keys: keysRouter,
  sources: routerFrom(sourceOperations),
  articles: articlesRouter,
  imports: importsRouter,
  conversations: conversationsRouter,
  savedReplies: savedRepliesRouter,
  team: teamRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
  people: peopleRouter,
  account: accountRouter,
  audit: auditRouter,
  visitorData: visitorDataRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures directly (tests, server components): `createCaller(createTRPCContext(...))`. */
export const createCaller = createCallerFactory(appRouter);
