import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Faults } from "./faults";
import { postJson } from "./webhook-send";

/**
 * Webhook delivery ("Events"): POST with a 5 s limit; a non-2xx answer, timeout or dropped connection
 * is redelivered after baseMs * 2^(attempt-1), at most maxMs, until `attempts` attempts were made
 * (at-least-once).
 * Every attempt is logged. Faults: duplicates, reordering (a window of events is released in reverse
 * order), delay before the first attempt.
 */

export interface WebhookRetry {
  baseMs: number;
  attempts: number;
  /** The longest wait between two attempts (the spec does not show the schedule); none by default. */
  maxMs?: number;
}

export interface DeliveryAttempt {
  at: string;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
}

export interface WebhookEvent {
  operationId: string;
  merchantId: string;
  operationStatus: string;
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface Delivery extends WebhookEvent {
  id: string;
  eventId: string;
  createdAt: string;
  /** 1 for the event itself, 2.. for copies sent by the duplicates fault. */
  copy: number;
  state: "scheduled" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
}

interface DispatcherOptions {
  retry: WebhookRetry;
  timeoutMs: number;
  faults: () => Faults;
  now: () => Date;
  onChange: () => void;
  logCapacity?: number;
}

export class WebhookDispatcher {
  private readonly log: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private held: Delivery[] = [];
  private stopped = false;
  private readonly aborter = new AbortController();

  constructor(private readonly options: DispatcherOptions) {
    // Every delivery in flight listens on the stop signal until its request closes, and a platform sends
    // as many at once as its events need: no count of listeners is a leak here.
    setMaxListeners(0, this.aborter.signal);
  }

  emit(event: WebhookEvent): void {
    const faults = this.options.faults();
    const eventId = randomUUID();
    const copies = Array.from({ length: faults.webhookDuplicates }, (_, index) =>
      this.record(event, eventId, index + 1),
    );
    if (faults.webhookReorder) {
      this.hold(copies, faults.webhookReorderWindowMs);
      return;
    }
    for (const delivery of copies) this.later(faults.webhookDelayMs, () => this.attempt(delivery));
  }

  deliveries(operationId: string | null): Delivery[] {
    return operationId === null
      ? [...this.log]
      : this.log.filter((delivery) => delivery.operationId === operationId);
  }

  /** Restores a saved log and resumes deliveries that were still scheduled. */
  restore(saved: Delivery[]): void {
    for (const delivery of saved) {
      this.log.push(delivery);
      if (delivery.state === "scheduled") {
        const due =
          delivery.nextAttemptAt === null
            ? 0
            : Date.parse(delivery.nextAttemptAt) - this.options.now().getTime();
        this.later(Math.max(0, due), () => this.attempt(delivery));
      }
    }
  }

  clear(): void {
    this.cancelTimers();
    this.log.length = 0;
    this.held = [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimers();
    this.aborter.abort();
    await Promise.all([...this.inFlight]);
  }

  private record(event: WebhookEvent, eventId: string, copy: number): Delivery {
    const delivery: Delivery = {
      id: randomUUID(),
      eventId,
      ...event,
      createdAt: this.options.now().toISOString(),
      copy,
      state: "scheduled",
      attempts: [],
      nextAttemptAt: null,
    };
    this.log.push(delivery);
    const capacity = this.options.logCapacity ?? 5_000;
    if (this.log.length > capacity) this.log.splice(0, this.log.length - capacity);
    this.options.onChange();
    return delivery;
  }

  private hold(deliveries: Delivery[], windowMs: number): void {
    const opensWindow = this.held.length === 0;
    this.held.push(...deliveries);
    if (!opensWindow) return;
    this.later(windowMs, async () => {
      const released = this.held.reverse();
      this.held = [];
      const delay = this.options.faults().webhookDelayMs;
      if (delay > 0) await new Promise<void>((resolve) => this.later(delay, () => resolve()));
      // Sequential first attempts, so the receiver sees the reversed order.
      for (const delivery of released) await this.attempt(delivery);
    });
  }

  private later(delayMs: number, task: () => Promise<void> | void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(Promise.resolve(task()));
    }, delayMs);
    this.timers.add(timer);
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch(() => undefined).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (this.stopped || delivery.state !== "scheduled") return;
    const at = this.options.now().toISOString();
    const result = await postJson(
      delivery.url,
      delivery.body,
      delivery.headers,
      this.options.timeoutMs,
      this.aborter.signal,
    );
    if (this.stopped) return; // Interrupted by stop(): stays scheduled, resumed from the state file.
    delivery.attempts.push({
      at,
      durationMs: result.durationMs,
      httpStatus: result.httpStatus,
      error: result.error,
    });
    const delivered = result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
    if (delivered) {
      delivery.state = "delivered";
      delivery.nextAttemptAt = null;
    } else if (delivery.attempts.length >= this.options.retry.attempts) {
      delivery.state = "failed";
      delivery.nextAttemptAt = null;
    } else {
      const { baseMs, maxMs = Infinity } = this.options.retry;
      const waitMs = Math.min(baseMs * 2 ** (delivery.attempts.length - 1), maxMs);
      delivery.nextAttemptAt = new Date(this.options.now().getTime() + waitMs).toISOString();
      this.later(waitMs, () => this.attempt(delivery));
    }
    this.options.onChange();
  }

  private cancelTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
