import "server-only";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";

/** The spec allows caching the bank directory for up to 24 hours. */
export const BANK_DIRECTORY_TTL_MS = 24 * 60 * 60 * 1000;

export type BankEntry = { name: string; platformId: string | null };

/** The bank directory from the database cache, refreshed from the platform when older than 24 h. */
export async function getBankDirectory(
  platform: Pick<PlatformClient, "getBanks">,
  context: { actorUserId?: string } = {},
  now = () => new Date(),
): Promise<{ banks: BankEntry[]; fetchedAt: Date }> {
  return getDb().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(7370003)`;
      const cached = await tx.bank.findMany({ orderBy: { name: "asc" } });
      const oldest = cached.reduce<Date | null>(
        (min, b) => (!min || b.fetchedAt < min ? b.fetchedAt : min),
        null,
      );
      if (oldest && now().getTime() - oldest.getTime() < BANK_DIRECTORY_TTL_MS) {
        return { banks: cached.map(({ name, platformId }) => ({ name, platformId })), fetchedAt: oldest };
      }
      let banks;
      try {
        ({ banks } = await platform.getBanks(context));
      } catch (error) {
        // A stale directory beats none: pay-out forms keep working while the platform is unreachable.
        if (oldest)
          return { banks: cached.map(({ name, platformId }) => ({ name, platformId })), fetchedAt: oldest };
        throw error;
      }
      const fetchedAt = now();
      const unique = [...new Map(banks.map((b) => [b.name, { name: b.name, platformId: b.id }])).values()];
      await tx.bank.deleteMany();
      await tx.bank.createMany({ data: unique.map((b) => ({ ...b, fetchedAt })) });
      return { banks: unique.sort((a, b) => a.name.localeCompare(b.name)), fetchedAt };
    },
    { timeout: 30_000 },
  );
}
