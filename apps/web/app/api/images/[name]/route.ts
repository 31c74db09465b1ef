// Uploaded images, public: served from the one table of routes.
import { routeFile } from "~/server/http/next.ts";
import { ROUTES } from "~/server/http/routes.ts";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(ROUTES.images);
