import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** A per-checkout AUTH_SECRET for development, kept in .data so sessions survive restarts. */
export async function devAuthSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "dev-auth-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}
