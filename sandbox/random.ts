import { randomInt } from "node:crypto";

/** A seeded pseudo-random generator (mulberry32): returns floats in [0, 1). */
export type Rng = () => number;

export function createRng(seed: number = randomInt(0, 2 ** 32)): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max]. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick() from an empty list");
  return item;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A version-4 UUID drawn from the given generator (deterministic for a seeded one). */
export function uuidFrom(rng: Rng): string {
  const bytes = new Array<number>(16);
  for (let index = 0; index < 16; index += 4) {
    const word = Math.floor(rng() * 4294967296);
    bytes[index] = word & 0xff;
    bytes[index + 1] = (word >>> 8) & 0xff;
    bytes[index + 2] = (word >>> 16) & 0xff;
    bytes[index + 3] = (word >>> 24) & 0xff;
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const h = bytes.map((byte) => HEX[byte] ?? "00");
  return `${h[0]}${h[1]}${h[2]}${h[3]}-${h[4]}${h[5]}-${h[6]}${h[7]}-${h[8]}${h[9]}-${h[10]}${h[11]}${h[12]}${h[13]}${h[14]}${h[15]}`;
}

export function digits(rng: Rng, count: number): string {
  let out = "";
  for (let index = 0; index < count; index++) out += String(Math.floor(rng() * 10));
  return out;
}
