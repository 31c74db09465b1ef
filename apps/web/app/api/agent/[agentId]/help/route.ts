import { getAppContext } from "~/server/context.ts";
import { otherMethodsNotAllowed } from "~/server/rest.ts";
import { helpCollectionsRoute } from "~/server/routes/help.ts";

export const dynamic = "force-dynamic";

// Every other method: 405 with the error body and Allow.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed(["GET", "HEAD"]);

export async function GET(request: Request, { params }: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return helpCollectionsRoute(await getAppContext(), request, await params);
}
