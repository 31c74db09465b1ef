import { getAppContext } from "~/server/context.ts";
import { otherMethodsNotAllowed } from "~/server/rest.ts";
import { messagesRoute } from "~/server/routes/messages.ts";

export const dynamic = "force-dynamic";

// Every other method: 405 with the error body and Allow.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed(["POST"]);

export async function POST(request: Request, { params }: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return messagesRoute(await getAppContext(), request, await params);
}
