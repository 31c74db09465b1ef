import { getAppContext } from "~/server/context.ts";
import { helpSitemapRoute } from "~/server/routes/help.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return helpSitemapRoute(await getAppContext(), request, await params);
}
