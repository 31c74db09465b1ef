// GET /docs (the rendered API reference) and GET /docs/assets/{file} (its scripts and styles,
// served from our own origin).
import { AppError, errorResult } from "@parley/core";
import { buildOpenApiDocument } from "@parley/core/openapi";
import { docsAssetResponse } from "~/docs/assets.ts";
import { renderDocsPage } from "~/docs/page.ts";
import { requestId } from "../http/request.ts";
import { respond } from "../http/write.ts";

export async function docsPageRoute(request: Request, appUrl: string): Promise<Response> {
  return respond(request, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=300" },
    text: renderDocsPage(buildOpenApiDocument({ appUrl })),
  });
}

export async function docsAssetRoute(request: Request, params: { file: string }): Promise<Response> {
  const response = docsAssetResponse(params.file);
  if (!response) return respond(request, errorResult(new AppError("NOT_FOUND")));
  response.headers.set("x-request-id", requestId(request));
  return response;
}
