import { getAppContext } from "~/server/context.ts";
import { messagesRoute } from "~/server/routes/messages.ts";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return messagesRoute(await getAppContext(), request, await params);
}
