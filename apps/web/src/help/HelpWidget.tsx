// The chat widget on the help pages: the /widget.js script tag, when the agent allows the app's
// own origin (the demo agent does). Server component.

import { NONCE_HEADER } from "@parley/core/security-headers";
import { headers } from "next/headers";
import { cache } from "react";
import { getAppContext } from "~/server/context.ts";

/** Whether the help pages have the chat: the agent is active and allows the app's own origin. */
export const helpChatOffered = cache(async (agentId: string): Promise<boolean> => {
  const ctx = await getAppContext();
  const agent = await ctx.db.prisma.agent.findUnique({ where: { id: agentId }, select: { active: true, allowedOrigins: true } });
  return agent?.active === true && agent.allowedOrigins.includes(new URL(ctx.appUrl).origin);
});

export async function HelpWidget(props: { agentId: string }) {
  if (!(await helpChatOffered(props.agentId))) return null;
  const ctx = await getAppContext();
  // The page's CSP nonce: the script may load from APP_URL even when it is not this page's origin,
  // and the widget gives it to its own style element.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return <script src={`${ctx.appUrl}/widget.js`} data-agent-id={props.agentId} nonce={nonce} async />;
}
