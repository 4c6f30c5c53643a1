// Test files run two at a time (vitest.config.ts). A file that calls isolateDatabase() works in a
// database of its own; every other integration file shares the test database and has it to itself, as
// when files ran one at a time: it holds this lock from before its first hook until after its last.
import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";

// The two-key form: a space of its own, apart from the app's one-key locks.
export const SHARED_DATABASE_LOCK = [2026, 1207] as const;
// A file waits for the one before it: the longest shared file takes ~25 s on two busy cores.
const WAIT_MS = 15 * 60_000;

// `restore = await isolateDatabase();` in a hook, as every isolated file has it.
const ISOLATES = /^\s+\w+ = await isolateDatabase\(\);/m;

let holder: pg.Client | null = null;

export async function usesSharedDatabase(filepath: string): Promise<boolean> {
  if (!filepath.includes("/tests/integration/")) return false;
  return !ISOLATES.test(await readFile(filepath, "utf8"));
}

beforeAll(async ({}, file) => {
  if (!("filepath" in file) || !(await usesSharedDatabase(file.filepath))) return;
  holder = new pg.Client({ connectionString: inject("databaseUrl") });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock($1, $2)", [...SHARED_DATABASE_LOCK]);
}, WAIT_MS);

// Ending the session releases the lock.
afterAll(() => holder?.end());
