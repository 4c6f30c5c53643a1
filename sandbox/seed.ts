import { publicBankNames } from "./banks";
import { fictitiousName, fictitiousNumber } from "./details";
import { MONO_BANK_NAMES, currencyOfMethod, detailsKind, monoBankAlias } from "./methods";
import { money, toWire } from "./money";
import { computeAmountsScaled } from "./money-scaled";
import { createRng, intBetween, pick, uuidFrom, type Rng } from "./random";
import type { MerchantState } from "./state";
import type { Direction, MerchantSettings, Operation, Status } from "./types";

/**
 * Historical operations with realistic mixes (POST /__sandbox/seed and the demo merchant's first
 * start): pay-ins in the majority, amounts 500..150,000 with kopecks, ~85 % success and ~10 % failed,
 * and operations left non-final only within the last day. Pay-outs are generated only while the
 * history's own running balance covers them, so the balance never goes negative.
 */

export interface SeedRequest {
  count: number;
  days: number;
  seed?: number;
  nowMs: number;
  firstSequence: number;
}

const DAY_MS = 86_400_000;

const PAY_IN_WEIGHTS: Array<[string, number]> = [
  ["toCard", 34],
  ["sbp", 34],
  ["toAccount", 4],
  ["nspk", 3],
  ["transgran", 3],
  ["transgranSBP", 2],
  ["ecom", 2],
  ["mobile", 1],
  ["sber_sber", 4],
  ["tbank_tbank", 3],
  ["alfa_alfa", 2],
  ["vtb_vtb", 2],
  ["ozon_ozon", 2],
  ["gazprom_gazprom", 1],
  ["psb_psb", 1],
  ["raif_raif", 1],
];
const PAY_OUT_WEIGHTS: Array<[string, number]> = [
  ["toCard", 50],
  ["sbp", 35],
  ["toAccount", 5],
  ["sber_sber", 3],
  ["tbank_tbank", 3],
  ["alfa_alfa", 1],
  ["vtb_vtb", 1],
  ["ozon_ozon", 1],
  ["raif_raif", 1],
];

function weightedPicker(
  weights: Array<[string, number]>,
  allowed: string[],
): ((rng: Rng) => string) | undefined {
  const usable = weights.filter(([method]) => allowed.includes(method));
  const extra = allowed
    .filter((method) => !usable.some(([known]) => known === method))
    .map((method): [string, number] => [method, 1]);
  const all = [...usable, ...extra];
  const total = all.reduce((sum, [, weight]) => sum + weight, 0);
  if (total === 0) return undefined;
  return (rng) => {
    let roll = rng() * total;
    for (const [method, weight] of all) {
      roll -= weight;
      if (roll < 0) return method;
    }
    return all[all.length - 1]?.[0] ?? "toCard";
  };
}

/** Amount in kopecks, log-uniform over 500..150,000; whole roubles 60 % of the time. */
function amountKopecks(rng: Rng): number {
  const rubles = Math.exp(Math.log(500) + rng() * (Math.log(150_000) - Math.log(500)));
  const kopecks = Math.round(rubles * 100);
  return rng() < 0.6 ? Math.max(50_000, Math.round(kopecks / 100) * 100) : kopecks;
}

function kopecksText(kopecks: number): string {
  const whole = Math.floor(kopecks / 100);
  const rest = kopecks % 100;
  if (rest === 0) return String(whole);
  return rest % 10 === 0 ? `${whole}.${rest / 10}` : `${whole}.${String(rest).padStart(2, "0")}`;
}

/** The merchant's rate drifts by up to ±3 % from day to day, so charts of converted amounts move. */
function dailyRate(
  settings: MerchantSettings,
  currency: string,
  day: number,
  cache: Map<string, string>,
): string {
  const key = `${currency}/${day}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const base =
    currency === settings.paymentCurrency ? settings.rate : (settings.otherRates[currency] ?? settings.rate);
  const drift = money(Math.round(Math.sin(day / 5) * 300)).dividedBy(10_000);
  const rate = toWire(money(base).times(drift.plus(1)).toDecimalPlaces(2));
  cache.set(key, rate);
  return rate;
}

function finalStatus(rng: Rng, recent: boolean, direction: Direction): Status {
  const roll = rng();
  if (recent && roll < 0.2) {
    const stuck = rng();
    if (stuck < 0.5) return "created";
    if (stuck < 0.8) return "in_progress";
    return direction === "payIn" ? "booking" : "pending_retry";
  }
  return roll < 0.89 ? "success" : "failed";
}

export function generateHistory(merchant: MerchantState, request: SeedRequest): Operation[] {
  const settings = merchant.settings;
  const rng = createRng(request.seed);
  const pickPayIn = weightedPicker(PAY_IN_WEIGHTS, settings.tariff.payIn);
  const pickPayOut = weightedPicker(PAY_OUT_WEIGHTS, settings.tariff.payOut);
  if (pickPayIn === undefined) return [];
  const spanMs = request.days * DAY_MS;
  const times = new Float64Array(request.count);
  for (let index = 0; index < request.count; index++)
    times[index] = Math.floor(request.nowMs - rng() * spanMs);
  times.sort();
  const banks = publicBankNames();
  const rates = new Map<string, string>();
  const operations = new Array<Operation>(request.count);
  // Heuristic headroom in kopecks (integers) of what the history earned; real amounts are Decimal.
  let headroom = 0;
  for (let index = 0; index < request.count; index++) {
    const dateAdded = times[index] ?? request.nowMs;
    const kopecks = amountKopecks(rng);
    const canPayOut = pickPayOut !== undefined && headroom * 0.85 > kopecks * 1.05;
    const direction: Direction = canPayOut && rng() < 0.3 ? "payOut" : "payIn";
    const method = direction === "payOut" && pickPayOut !== undefined ? pickPayOut(rng) : pickPayIn(rng);
    const status = finalStatus(rng, request.nowMs - dateAdded < DAY_MS, direction);
    if (direction === "payIn" && status === "success") headroom += kopecks;
    if (direction === "payOut" && status !== "failed") headroom -= kopecks;
    const currency = currencyOfMethod(method, settings.paymentCurrency);
    const day = Math.floor(dateAdded / DAY_MS);
    const amount = kopecksText(kopecks);
    const commission = direction === "payIn" ? settings.commission.payIn : settings.commission.payOut;
    const figures = computeAmountsScaled(amount, commission, dailyRate(settings, currency, day, rates));
    const settled = status === "success" || status === "failed";
    const dateUpdated = settled
      ? Math.min(request.nowMs, dateAdded + intBetween(rng, 20_000, 2 * 3_600_000))
      : dateAdded;
    const alias = monoBankAlias(method);
    const bankName = alias === undefined ? pick(rng, banks) : MONO_BANK_NAMES[alias];
    const party = {
      bankName,
      nameMediator: fictitiousName(rng),
      number: fictitiousNumber(rng, detailsKind(method), bankName),
    };
    operations[index] = {
      id: uuidFrom(rng),
      merchantId: settings.id,
      dateAdded,
      dateUpdated,
      typeOperation: direction,
      status,
      idTransactionMerchant: `seed-${String(request.firstSequence + index).padStart(8, "0")}`,
      paymentMethod: method,
      amountInitial: amount,
      amountRandomized: amount,
      amount,
      currency,
      ...figures,
      details: direction === "payIn" ? { paymentMethod: method, ...party, poolIndex: -1 } : null,
      recipient: direction === "payOut" ? { ...party, bankKnown: true } : null,
      mode: "h2h",
      origin: "seed",
      webHook: null,
      form: null,
      client: null,
    };
  }
  return operations;
}
