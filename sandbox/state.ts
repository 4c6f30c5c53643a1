import { signMerchantToken } from "./auth";
import { DetailsPools } from "./details";
import { availableEffect, reservedEffect, scaledEffects } from "./ledger";
import { money, type Money } from "./money";
import { scale4ToText } from "./money-scaled";
import type { BalanceCredit, MerchantSettings, Operation } from "./types";

/**
 * In-memory store. Each merchant keeps its operations in an array ordered by dateAdded (ascending,
 * ties in insertion order), so the list endpoint reads a page from the end without sorting.
 */

export interface MerchantState {
  settings: MerchantSettings;
  token: string;
  operations: Operation[];
  /** idTransactionMerchant is unique within a merchant (duplicateIdentifier). */
  byTransactionId: Map<string, Operation>;
  /** Available balance (reservations of pending pay-outs already deducted). */
  available: Money;
  reserved: Money;
  credits: BalanceCredit[];
  lastSuccess: { at: number; rate: string } | null;
  pools: DetailsPools;
  /** Creation times per clientID, for the anti-fraud rate check. */
  clientCreations: Map<string, number[]>;
}

export class SandboxState {
  readonly merchants = new Map<string, MerchantState>();
  readonly operations = new Map<string, Operation>();
  /** Number of seeded operations so far (used for their idTransactionMerchant). */
  seedCounter = 0;

  constructor(
    readonly secret: string,
    readonly tokenIssuedAt: number,
  ) {}

  addMerchant(settings: MerchantSettings, credits: BalanceCredit[] = []): MerchantState {
    const merchant: MerchantState = {
      settings,
      token: signMerchantToken(this.secret, settings.id, this.tokenIssuedAt),
      operations: [],
      byTransactionId: new Map(),
      available: money(0),
      reserved: money(0),
      credits: [],
      lastSuccess: null,
      pools: new DetailsPools(() => merchant.settings),
      clientCreations: new Map(),
    };
    this.merchants.set(settings.id, merchant);
    for (const credit of credits) this.addCredit(merchant, credit);
    return merchant;
  }

  merchant(id: string): MerchantState | undefined {
    return this.merchants.get(id);
  }

  requireMerchant(id: string): MerchantState {
    const merchant = this.merchants.get(id);
    if (merchant === undefined) throw new Error(`Unknown merchant ${id}`);
    return merchant;
  }

  addCredit(merchant: MerchantState, credit: BalanceCredit): void {
    merchant.credits.push(credit);
    merchant.available = merchant.available.plus(credit.amount);
  }

  /** Inserts one operation keeping the dateAdded order, and applies its balance effects. */
  insertOperation(op: Operation): void {
    const merchant = this.requireMerchant(op.merchantId);
    const list = merchant.operations;
    let position = list.length;
    while (position > 0 && (list[position - 1]?.dateAdded ?? 0) > op.dateAdded) position--;
    if (position === list.length) list.push(op);
    else list.splice(position, 0, op);
    this.index(merchant, op);
  }

  /** Merges operations already sorted by dateAdded into the merchant's list in one pass. */
  mergeSorted(merchant: MerchantState, sorted: Operation[]): void {
    const existing = merchant.operations;
    const merged = new Array<Operation>(existing.length + sorted.length);
    let left = 0;
    let right = 0;
    for (let out = 0; out < merged.length; out++) {
      const a = existing[left];
      const b = sorted[right];
      if (b === undefined || (a !== undefined && a.dateAdded <= b.dateAdded)) {
        merged[out] = a as Operation;
        left++;
      } else {
        merged[out] = b;
        right++;
      }
    }
    merchant.operations = merged;
    let available = 0n;
    let reserved = 0n;
    for (const op of sorted) {
      this.index(merchant, op, false);
      const effects = scaledEffects(op);
      available += effects.available;
      reserved += effects.reserved;
    }
    merchant.available = merchant.available.plus(scale4ToText(available));
    merchant.reserved = merchant.reserved.plus(scale4ToText(reserved));
  }

  /** Applies a change of an operation and keeps balance, reservations and last success in step. */
  update(op: Operation, change: (op: Operation) => void): void {
    const merchant = this.requireMerchant(op.merchantId);
    const before = { available: availableEffect(op), reserved: reservedEffect(op) };
    change(op);
    merchant.available = merchant.available.minus(before.available).plus(availableEffect(op));
    merchant.reserved = merchant.reserved.minus(before.reserved).plus(reservedEffect(op));
    this.noteSuccess(merchant, op);
  }

  clearOperations(merchant: MerchantState): void {
    for (const op of merchant.operations) this.operations.delete(op.id);
    merchant.operations = [];
    merchant.byTransactionId.clear();
    merchant.available = merchant.credits.reduce((sum, credit) => sum.plus(credit.amount), money(0));
    merchant.reserved = money(0);
    merchant.lastSuccess = null;
    merchant.pools.clear();
    merchant.clientCreations.clear();
  }

  private index(merchant: MerchantState, op: Operation, applyEffects = true): void {
    this.operations.set(op.id, op);
    merchant.byTransactionId.set(op.idTransactionMerchant, op);
    if (applyEffects) {
      merchant.available = merchant.available.plus(availableEffect(op));
      merchant.reserved = merchant.reserved.plus(reservedEffect(op));
    }
    if (op.details !== null && op.status !== "success" && op.status !== "failed")
      merchant.pools.hold(op.details);
    this.noteSuccess(merchant, op);
  }

  private noteSuccess(merchant: MerchantState, op: Operation): void {
    if (op.status !== "success") return;
    if (merchant.lastSuccess === null || op.dateUpdated >= merchant.lastSuccess.at) {
      merchant.lastSuccess = { at: op.dateUpdated, rate: op.exchangeRate };
    }
  }
}
