import "server-only";
import { getDb } from "@/lib/db";

/**
 * The merchant's balance currency (operations carry only their payment currency): from the newest
 * balance snapshot, null until a balance has been read.
 */
export async function getBalanceCurrency(): Promise<string | null> {
  const latest = await getDb().balanceSnapshot.findFirst({
    orderBy: { takenAt: "desc" },
    select: { currencyBalance: true },
  });
  return latest?.currencyBalance ?? null;
}
