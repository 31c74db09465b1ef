import { getAppContext } from "~/server/context.ts";
import { helpArticleRoute } from "~/server/routes/help.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ agentId: string; itemId: string }> }): Promise<Response> {
  return helpArticleRoute(await getAppContext(), request, await params);
}
