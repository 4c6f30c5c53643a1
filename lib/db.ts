import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getDatabasePoolSize, getDatabaseUrl } from "@/lib/env";

function createClient() {
  const adapter = new PrismaPg({ connectionString: getDatabaseUrl(), max: getDatabasePoolSize() });
  // Secrets stay out of every query result unless a query asks for them explicitly.
  return new PrismaClient({
    adapter,
    omit: { user: { passwordHash: true } },
    // Writes that wait for an operation's lock may queue behind others under load: wait, don't fail.
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
  });
}

export type Db = ReturnType<typeof createClient>;

const globalForDb = globalThis as unknown as { paydeskDb?: Db };

/** The one Prisma client of the process (kept on globalThis so dev hot reloads reuse it). */
export function getDb(): Db {
  globalForDb.paydeskDb ??= createClient();
  return globalForDb.paydeskDb;
}
