// Prisma CLI configuration (Prisma 7): schema and migrations live in prisma/.
// The datasource URL is only needed by `prisma migrate deploy` where Prisma's engines exist;
// `npm run db:migrate` (packages/db) applies the same migrations without them.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/parley" },
});
