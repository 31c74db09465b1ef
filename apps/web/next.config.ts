import { HELP_CACHE_CONTROL } from "@parley/core/limits";
import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: ["@parley/api", "@parley/core", "@parley/db"],
  // Loaded from node_modules at run time: WASM assets (PGlite) and native-ish drivers.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "ioredis", "ioredis-mock", "ws"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Help pages follow the help routes' cache rule (spec 4.5.3), 404 pages included.
  async headers() {
    return [{ source: "/help/:path*", headers: [{ key: "Cache-Control", value: HELP_CACHE_CONTROL }] }];
  },
};

export default config;
