import { createPlatformClient, type PlatformClientOptions } from "@/lib/platform/client";
import { InMemoryRecorder } from "../../support/in-memory-recorder";
import type { PayInRequest, PayOutRequest } from "@/lib/platform/requests";
import type { FakePlatform } from "./fake-platform";

export const TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LW1lcmNoYW50LXRva2Vu.S1gn4tur3-Zz";

export function makeClient(fake: FakePlatform, over: Partial<PlatformClientOptions> = {}) {
  const recorder = new InMemoryRecorder();
  const sleeps: number[] = [];
  const client = createPlatformClient({
    baseUrl: `${fake.url}/api`,
    token: TOKEN,
    timeoutMs: 2000,
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000 },
    recorder,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    ...over,
  });
  return { client, recorder, sleeps };
}

export const client = {
  clientID: "client-42",
  clientIP: "203.0.113.7",
  clientDateCreated: "2024-01-15T10:00:00Z",
};
export const payIn: PayInRequest = {
  paymentMethod: "sbp",
  idTransactionMerchant: "order-1",
  amount: "62.50",
  ...client,
};
export const payOut: PayOutRequest = {
  ...payIn,
  paymentMethod: "toCard",
  number: "4111111111111234",
  bankName: "Sber",
  nameMediator: "Ivan I.",
};

/** Resolves with the rejection of `p` (fails if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}
