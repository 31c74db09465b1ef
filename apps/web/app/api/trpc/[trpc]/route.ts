import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { trpcResponse } from "~/server/routes/trpc.ts";

export const dynamic = "force-dynamic";

async function handler(request: Request): Promise<Response> {
  return trpcResponse(await getAppContext(), request, await sessionFromRequest(request));
}

export { handler as GET, handler as POST };
