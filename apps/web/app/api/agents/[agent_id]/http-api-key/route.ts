import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { otherMethodsNotAllowed } from "~/server/rest.ts";
import { createHttpApiKey, revokeHttpApiKey } from "~/server/routes/keys.ts";

export const dynamic = "force-dynamic";

// Every other method: 405 with the error body and Allow.
export const { GET, PUT, PATCH, OPTIONS } = otherMethodsNotAllowed(["POST", "DELETE"]);

type Context = { params: Promise<{ agent_id: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return createHttpApiKey(await getAppContext(), request, await params, await sessionFromRequest(request));
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return revokeHttpApiKey(await getAppContext(), request, await params, await sessionFromRequest(request));
}
