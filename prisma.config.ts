import { defineConfig } from "prisma/config";

// The URL is only needed by Prisma CLI commands that connect (studio, migrate with Prisma's own binaries);
// `prisma generate` works without it. The app itself reads DATABASE_URL through lib/env.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/paydesk" },
});
