import { docsAssetRoute } from "~/server/routes/docs.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return docsAssetRoute(request, await params);
}
