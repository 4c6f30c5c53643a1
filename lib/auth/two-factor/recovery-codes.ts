import "server-only";
import { randomInt } from "node:crypto";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Recovery codes: 10 per user, shown once when made, stored as argon2id hashes, each usable once in
 * place of a code from the app (sign-in, step-up, disabling). Ten characters from an alphabet without
 * look-alikes (about 49 bits each), shown as `xxxxx-xxxxx`; typed with or without the dash, any case.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const LENGTH = 10;

export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The code as stored (lower case, no dash or spaces), or null when it cannot be a recovery code. */
export function normaliseRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, "");
  if (compact.length !== LENGTH) return null;
  return [...compact].every((c) => ALPHABET.includes(c)) ? compact : null;
}

export async function hashRecoveryCodes(codes: string[]): Promise<string[]> {
  return Promise.all(codes.map((code) => hashPassword(normaliseRecoveryCode(code)!)));
}

/** The user's codes become these (hashed beforehand: argon2 has no place inside a transaction). */
export async function replaceRecoveryCodes(
  tx: Pick<Prisma.TransactionClient, "recoveryCode">,
  userId: string,
  hashes: string[],
): Promise<void> {
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: hashes.map((codeHash) => ({ userId, codeHash })) });
}

/**
 * Uses one of the user's unused codes; true when it matched and is now spent. The match is marked used
 * only if still unused, so two requests racing with the same code cannot both pass. Always does the
 * work of checking a full set, so the time taken does not tell how many codes are left.
 */
export async function spendRecoveryCode(userId: string, input: string, now: Date): Promise<boolean> {
  const code = normaliseRecoveryCode(input) ?? "";
  const unused = await getDb().recoveryCode.findMany({
    where: { userId, usedAt: null },
    select: { id: true, codeHash: true },
    orderBy: { createdAt: "asc" },
  });
  let matched: string | null = null;
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    const candidate = unused[i];
    const ok = await verifyPassword(candidate?.codeHash ?? (await paddingHash), code);
    if (ok && candidate && code !== "" && matched === null) matched = candidate.id;
  }
  if (matched === null) return false;
  const spent = await getDb().recoveryCode.updateMany({
    where: { id: matched, usedAt: null },
    data: { usedAt: now },
  });
  return spent.count === 1;
}

export function remainingRecoveryCodes(userId: string): Promise<number> {
  return getDb().recoveryCode.count({ where: { userId, usedAt: null } });
}

// Verified against when a user has fewer codes than a full set; no input can match it.
const paddingHash = hashPassword("not a recovery code: padding only");
