import { getAppContext } from "~/server/context.ts";
import { otherMethodsNotAllowed } from "~/server/rest.ts";
import { helpArticleRoute } from "~/server/routes/help.ts";

export const dynamic = "force-dynamic";

// Every other method: 405 with the error body and Allow.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed(["GET", "HEAD"]);

export async function GET(request: Request, { params }: { params: Promise<{ agentId: string; itemId: string }> }): Promise<Response> {
  return helpArticleRoute(await getAppContext(), request, await params);
}
