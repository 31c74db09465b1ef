// GET /docs (the rendered API reference) and GET /docs/assets/{file} (its scripts and styles,
// served from our own origin).
import { buildOpenApiDocument } from "@parley/core/openapi";
import { docsAssetResponse } from "~/docs/assets.ts";
import { renderDocsPage } from "~/docs/page.ts";
import { AppError, handle } from "../rest.ts";

export function docsPageRoute(request: Request, appUrl: string): Promise<Response> {
  return handle(
    request,
    async () =>
      new Response(renderDocsPage(buildOpenApiDocument({ appUrl })), {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=300" },
      }),
  );
}

export function docsAssetRoute(request: Request, params: { file: string }): Promise<Response> {
  return handle(request, async () => {
    const response = docsAssetResponse(params.file);
    if (!response) throw new AppError("NOT_FOUND");
    return response;
  });
}
