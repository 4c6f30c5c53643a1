import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** HS256 JWTs issued by the sandbox, one per merchant (Authentication, rule 1). */

const ISSUER = "paydesk-sandbox";

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString("base64url");
}

export function newSigningSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function signMerchantToken(secret: string, merchantId: string, issuedAtSeconds: number): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ sub: merchantId, iss: ISSUER, iat: issuedAtSeconds }));
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** The merchant id of a valid `Authorization: Bearer <jwt>` header, or undefined. */
export function merchantIdFromAuthorization(secret: string, header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? "");
  const token = match?.[1];
  if (token === undefined) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", secret).update(`${encodedHeader}.${encodedPayload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const head = JSON.parse(Buffer.from(encodedHeader, "base64url").toString("utf8")) as { alg?: unknown };
    const payload = JSON.parse(Buffer.from(encodedPayload, "base64url").toString("utf8")) as {
      sub?: unknown;
      iss?: unknown;
    };
    if (head.alg !== "HS256" || payload.iss !== ISSUER || typeof payload.sub !== "string") return undefined;
    return payload.sub;
  } catch {
    return undefined;
  }
}
