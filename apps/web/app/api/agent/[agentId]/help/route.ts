// The help collections (spec 4.2): served from the one table of routes (src/server/http/routes.ts).
import { routeFile } from "~/server/http/next.ts";
import { ROUTES } from "~/server/http/routes.ts";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(ROUTES.helpCollections);
