// Keyset cursor of the operations list: base64url of "<dateAdded ISO>|<id>", order dateAdded DESC, id DESC.
import { isDateOnly } from "@/lib/time/zone";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type Cursor = { dateAdded: Date; id: string };

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const binary = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(`${cursor.dateAdded.toISOString()}|${cursor.id}`);
}

/** The cursor, or null when the text is not one this list produced. */
export function decodeCursor(value: string): Cursor | null {
  const text = fromBase64Url(value);
  if (!text) return null;
  const [iso, id, ...rest] = text.split("|");
  if (rest.length || !iso || !id || !UUID.test(id)) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(iso)) return null;
  // A forged year 0000 would fail the query itself (PostgreSQL has no year 0).
  if (!isDateOnly(iso.slice(0, 10))) return null;
  const dateAdded = new Date(iso);
  return Number.isNaN(dateAdded.getTime()) ? null : { dateAdded, id };
}
