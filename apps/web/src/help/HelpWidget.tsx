// The chat widget on the help pages: the /widget.js script tag, when the agent allows the app's
// own origin (the demo agent does). Server component.
import { getAppContext } from "~/server/context.ts";

export async function HelpWidget(props: { agentId: string }) {
  const ctx = await getAppContext();
  const agent = await ctx.db.prisma.agent.findUnique({ where: { id: props.agentId }, select: { active: true, allowedOrigins: true } });
  const origin = new URL(ctx.appUrl).origin;
  if (!agent?.active || !agent.allowedOrigins.includes(origin)) return null;
  return <script src={`${ctx.appUrl}/widget.js`} data-agent-id={props.agentId} async />;
}
