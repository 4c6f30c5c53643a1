import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";

/**
 * Secrets at rest (a user's TOTP secret): AES-256-GCM with a key derived by HKDF-SHA256 from
 * ENCRYPTION_KEY, or from AUTH_SECRET when that is not set. The user's id is the additional data, so a
 * ciphertext copied onto another user's row does not decrypt. Stored as `v1.<iv>.<ciphertext>.<tag>`
 * (base64url); anything altered fails the tag check and reads as unreadable, never as another secret.
 */
const VERSION = "v1";
const HKDF_SALT = "paydesk/secret-at-rest";
const HKDF_INFO = "paydesk/two-factor-secret/v1";

export function deriveKey(material: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, HKDF_SALT, HKDF_INFO, 32));
}

let cachedKey: { material: string; key: Buffer } | null = null;

function configuredKey(): Buffer {
  const env = getEnv();
  const material = env.ENCRYPTION_KEY ?? env.AUTH_SECRET;
  if (cachedKey?.material !== material) cachedKey = { material, key: deriveKey(material) };
  return cachedKey.key;
}

export function encryptWith(key: Buffer, plaintext: string, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString("base64url"));
  return [VERSION, ...parts].join(".");
}

/** The plaintext, or null when the value is malformed, altered, bound to someone else or under another key. */
export function decryptWith(key: Buffer, stored: string, boundTo: string): string | null {
  const [version, iv, ciphertext, tag, ...rest] = stored.split(".");
  if (version !== VERSION || !iv || ciphertext === undefined || !tag || rest.length > 0) return null;
  try {
    // A full 16-byte tag only: a shortened tag would be easier to forge.
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}

export function encryptSecret(plaintext: string, userId: string): string {
  return encryptWith(configuredKey(), plaintext, userId);
}

export function decryptSecret(stored: string, userId: string): string | null {
  return decryptWith(configuredKey(), stored, userId);
}
