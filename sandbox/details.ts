import { createHash } from "node:crypto";
import { MONO_BANK_NAMES, detailsKind, monoBankAlias, type DetailsKind } from "./methods";
import { createRng, digits, pick, type Rng } from "./random";
import type { MerchantSettings, PaymentDetails } from "./types";

/**
 * Pools of fictitious pay-in details per merchant and method (spec "paymentDetailsData", rules 1-2:
 * details are single-use). A slot is held while its operation is not final and released at the final
 * status; an empty pool gives noPaymentDetailsAvailable.
 */

const FIRST_NAMES = [
  "Иван",
  "Алексей",
  "Мария",
  "Ольга",
  "Дмитрий",
  "Елена",
  "Сергей",
  "Анна",
  "Павел",
  "Наталья",
  "Андрей",
  "Татьяна",
];
const PATRONYMICS_M = ["Петрович", "Сергеевич", "Андреевич", "Игоревич", "Викторович"];
const PATRONYMICS_F = ["Петровна", "Сергеевна", "Андреевна", "Игоревна", "Викторовна"];
const FEMALE = new Set(["Мария", "Ольга", "Елена", "Анна", "Наталья", "Татьяна"]);
const INITIALS = "АБВГДЕЖЗИКЛМНОПРСТУФХЧШЩЭЮЯ".split("");
const DETAIL_BANKS = [
  "Сбербанк",
  "Т-Банк",
  "Альфа-Банк",
  "ВТБ",
  "Газпромбанк",
  "Райффайзенбанк",
  "Озон Банк",
  "ПСБ",
  "Совкомбанк",
  "МТС Банк",
];
const CARD_BINS: Record<string, string> = {
  Сбербанк: "220220",
  "Т-Банк": "220070",
  "Альфа-Банк": "220015",
  ВТБ: "220024",
  Газпромбанк: "220001",
  Райффайзенбанк: "220030",
  "Озон Банк": "220038",
  ПСБ: "220053",
  Совкомбанк: "220100",
  "МТС Банк": "220028",
};

export function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let index = 0; index < partial.length; index++) {
    let digit = Number(partial[partial.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

function seedOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32LE(0);
}

const nameCache = new Map<string, string>();

/** A fictitious recipient name ("Иван Петрович С."); the few hundred combinations are shared strings. */
export function fictitiousName(rng: Rng): string {
  const first = pick(rng, FIRST_NAMES);
  const patronymic = pick(rng, FEMALE.has(first) ? PATRONYMICS_F : PATRONYMICS_M);
  const key = `${first} ${patronymic} ${pick(rng, INITIALS)}.`;
  const cached = nameCache.get(key);
  if (cached !== undefined) return cached;
  nameCache.set(key, key);
  return key;
}

export function fictitiousNumber(rng: Rng, kind: DetailsKind, bankName: string): string {
  if (kind === "phone") return `+79${digits(rng, 9)}`;
  if (kind === "account") return `40817810${digits(rng, 12)}`;
  const partial = (CARD_BINS[bankName] ?? "220000") + digits(rng, 9);
  return partial + luhnCheckDigit(partial);
}

/** Details of slot `index` of a method's pool: deterministic for a merchant, method and index. */
export function detailsForSlot(merchantId: string, method: string, index: number): PaymentDetails {
  const rng = createRng(seedOf(`${merchantId}/${method}/${index}`));
  const alias = monoBankAlias(method);
  const bankName = alias === undefined ? pick(rng, DETAIL_BANKS) : MONO_BANK_NAMES[alias];
  return {
    paymentMethod: method,
    bankName,
    nameMediator: fictitiousName(rng),
    number: fictitiousNumber(rng, detailsKind(method), bankName),
    poolIndex: index,
  };
}

export class DetailsPools {
  private readonly inUse = new Map<string, Set<number>>();

  constructor(private readonly settings: () => MerchantSettings) {}

  sizeOf(method: string): number {
    const { detailsPoolOverrides, detailsPoolSize } = this.settings();
    return detailsPoolOverrides[method] ?? detailsPoolSize;
  }

  freeCount(method: string): number {
    return Math.max(0, this.sizeOf(method) - (this.inUse.get(method)?.size ?? 0));
  }

  /** Takes the lowest free slot, or returns undefined when the pool is exhausted. */
  reserve(method: string): PaymentDetails | undefined {
    const used = this.usedSet(method);
    const size = this.sizeOf(method);
    for (let index = 0; index < size; index++) {
      if (!used.has(index)) {
        used.add(index);
        return detailsForSlot(this.settings().id, method, index);
      }
    }
    return undefined;
  }

  /** Marks a slot as held (used when state is loaded from disk). */
  hold(details: PaymentDetails): void {
    if (details.poolIndex >= 0) this.usedSet(details.paymentMethod).add(details.poolIndex);
  }

  release(details: PaymentDetails): void {
    if (details.poolIndex >= 0) this.inUse.get(details.paymentMethod)?.delete(details.poolIndex);
  }

  clear(): void {
    this.inUse.clear();
  }

  private usedSet(method: string): Set<number> {
    let used = this.inUse.get(method);
    if (used === undefined) {
      used = new Set();
      this.inUse.set(method, used);
    }
    return used;
  }
}
