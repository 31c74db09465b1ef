import { getAppContext } from "~/server/context.ts";
import { helpArticlesRoute } from "~/server/routes/help.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return helpArticlesRoute(await getAppContext(), request, await params);
}
