import { randomUUID } from "node:crypto";
import { newSigningSecret } from "./auth";
import { DEMO_HISTORY, defaultMerchants } from "./defaults";
import { buildEvent } from "./events";
import { FaultInjector } from "./faults";
import { checkTransition, type TransitionCheck } from "./lifecycle";
import { money, toWire } from "./money";
import type { SavedState } from "./persistence";
import { RequestLog } from "./request-log";
import { generateHistory } from "./seed";
import { SandboxState, type MerchantState } from "./state";
import { FINAL_STATUSES, type MerchantSettings, type Operation, type Status } from "./types";
import { WebhookDispatcher, type WebhookRetry } from "./webhooks";

/** Everything the handlers share: state, faults, webhooks, request log, and the operations that change state. */

export interface PlatformOptions {
  now: () => Date;
  webhookRetry: WebhookRetry;
  webhookTimeoutMs: number;
  webhookLogCapacity?: number | undefined;
  seedDemoHistory: boolean;
  onChange: () => void;
}

export type StatusListener = (op: Operation, from: Status) => void;

export class Platform {
  state: SandboxState;
  readonly faults = new FaultInjector();
  readonly requests = new RequestLog();
  readonly webhooks: WebhookDispatcher;
  private readonly statusListeners: StatusListener[] = [];
  private readonly creationListeners: Array<(op: Operation) => void> = [];

  constructor(readonly options: PlatformOptions) {
    this.state = new SandboxState(newSigningSecret(), Math.floor(options.now().getTime() / 1000));
    this.webhooks = new WebhookDispatcher({
      retry: options.webhookRetry,
      timeoutMs: options.webhookTimeoutMs,
      logCapacity: options.webhookLogCapacity,
      faults: () => this.faults.config,
      now: options.now,
      onChange: options.onChange,
    });
  }

  nowMs(): number {
    return this.options.now().getTime();
  }

  changed(): void {
    this.options.onChange();
  }

  onStatusChange(listener: StatusListener): void {
    this.statusListeners.push(listener);
  }

  onCreated(listener: (op: Operation) => void): void {
    this.creationListeners.push(listener);
  }

  /** Fresh default merchants (keeping the signing secret, so tokens stay the same) and the demo history. */
  resetToDefaults(): void {
    this.state = new SandboxState(this.state.secret, this.state.tokenIssuedAt);
    for (const settings of defaultMerchants()) this.state.addMerchant(settings);
    this.faults.clear();
    this.requests.clear();
    this.webhooks.clear();
    if (this.options.seedDemoHistory) {
      this.seed(this.state.requireMerchant("demo"), DEMO_HISTORY.count, DEMO_HISTORY.days, DEMO_HISTORY.seed);
    }
    this.changed();
  }

  restore(saved: SavedState & { operations: Operation[] }): void {
    this.state = new SandboxState(saved.secret, saved.tokenIssuedAt);
    this.state.seedCounter = saved.seedCounter;
    for (const { settings, credits } of saved.merchants)
      this.state.addMerchant({ ...defaultSettingsFor(settings.id), ...settings }, credits);
    const byMerchant = new Map<string, Operation[]>();
    for (const op of saved.operations) {
      const list = byMerchant.get(op.merchantId) ?? [];
      list.push(op);
      byMerchant.set(op.merchantId, list);
    }
    for (const [merchantId, operations] of byMerchant) {
      const merchant = this.state.merchant(merchantId);
      if (merchant !== undefined)
        this.state.mergeSorted(
          merchant,
          operations.sort((a, b) => a.dateAdded - b.dateAdded),
        );
    }
    this.webhooks.restore(saved.deliveries);
  }

  snapshot(): SavedState {
    const merchants = [...this.state.merchants.values()];
    return {
      secret: this.state.secret,
      tokenIssuedAt: this.state.tokenIssuedAt,
      seedCounter: this.state.seedCounter,
      merchants: merchants.map((merchant) => ({ settings: merchant.settings, credits: merchant.credits })),
      operations: (function* () {
        for (const merchant of merchants) yield* merchant.operations;
      })(),
      deliveries: this.webhooks.deliveries(null),
    };
  }

  /** A move of the transitions table: balance effects, details release, webhook event. */
  moveStatus(op: Operation, to: Status): TransitionCheck {
    const check = checkTransition(op, to);
    if (!check.ok) return check;
    const merchant = this.state.requireMerchant(op.merchantId);
    const from = op.status;
    this.state.update(op, (target) => {
      target.status = to;
      target.dateUpdated = Math.max(this.nowMs(), target.dateAdded);
    });
    if (FINAL_STATUSES.has(to) && op.details !== null) merchant.pools.release(op.details);
    const event = buildEvent(op, merchant.settings);
    if (event !== undefined) this.webhooks.emit(event);
    for (const listener of this.statusListeners) listener(op, from);
    this.changed();
    return { ok: true };
  }

  notifyCreated(op: Operation): void {
    for (const listener of this.creationListeners) listener(op);
    this.changed();
  }

  credit(merchant: MerchantState, amount: string, note: string): void {
    this.state.addCredit(merchant, {
      id: randomUUID(),
      at: this.nowMs(),
      amount: toWire(money(amount)),
      note,
    });
    this.changed();
  }

  seed(merchant: MerchantState, count: number, days: number, seed?: number): number {
    const operations = generateHistory(merchant, {
      count,
      days,
      seed,
      nowMs: this.nowMs(),
      firstSequence: this.state.seedCounter + 1,
    });
    this.state.seedCounter += operations.length;
    this.state.mergeSorted(merchant, operations);
    this.changed();
    return operations.length;
  }
}

/** Defaults for settings added after a state file was written. */
function defaultSettingsFor(id: string): MerchantSettings {
  const known = defaultMerchants().find((settings) => settings.id === id) ?? defaultMerchants()[0];
  if (known === undefined) throw new Error("no default merchants");
  return known;
}
