import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getDatabaseUrl } from "@/lib/env";

function createClient() {
  const adapter = new PrismaPg({ connectionString: getDatabaseUrl() });
  // Secrets stay out of every query result unless a query asks for them explicitly.
  return new PrismaClient({ adapter, omit: { user: { passwordHash: true } } });
}

export type Db = ReturnType<typeof createClient>;

const globalForDb = globalThis as unknown as { paydeskDb?: Db };

/** The one Prisma client of the process (kept on globalThis so dev hot reloads reuse it). */
export function getDb(): Db {
  globalForDb.paydeskDb ??= createClient();
  return globalForDb.paydeskDb;
}
