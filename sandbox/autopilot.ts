import { isKnownBank } from "./banks";
import type { Platform } from "./platform";
import { createRng, type Rng } from "./random";
import { FINAL_STATUSES, type Operation, type Status } from "./types";

/**
 * Autopilot (SANDBOX_AUTOPILOT=1): operations created through the API advance on their own after
 * random delays, mostly created -> in_progress -> success, sometimes through booking (pay-in) or
 * pending_retry (pay-out), sometimes to failed. precreated operations wait for the payment form.
 * Pay-outs to a bank outside the directory are rejected by the (emulated) provider.
 */

export interface AutopilotTiming {
  minDelayMs: number;
  maxDelayMs: number;
}

export class Autopilot {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly rng: Rng = createRng();
  private running = true;

  constructor(
    private readonly platform: Platform,
    private readonly timing: AutopilotTiming,
  ) {
    platform.onCreated((op) => this.schedule(op));
    platform.onStatusChange((op) => this.schedule(op));
  }

  /** Picks up non-final operations already in the state (after a restart). */
  resume(): void {
    for (const op of this.platform.state.operations.values()) {
      if (op.origin === "api" && !FINAL_STATUSES.has(op.status)) this.schedule(op);
    }
  }

  stop(): void {
    this.running = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(op: Operation): void {
    const existing = this.timers.get(op.id);
    if (existing !== undefined) clearTimeout(existing);
    this.timers.delete(op.id);
    if (!this.running || op.origin !== "api" || op.status === "precreated" || FINAL_STATUSES.has(op.status))
      return;
    const { minDelayMs, maxDelayMs } = this.timing;
    const delay = minDelayMs + Math.floor(this.rng() * Math.max(1, maxDelayMs - minDelayMs));
    const timer = setTimeout(() => {
      this.timers.delete(op.id);
      if (this.platform.state.operations.get(op.id) !== op) return;
      this.platform.moveStatus(op, this.nextStatus(op));
    }, delay);
    timer.unref();
    this.timers.set(op.id, timer);
  }

  private nextStatus(op: Operation): Status {
    const roll = this.rng();
    switch (op.status) {
      case "created":
        if (op.typeOperation === "payIn" && roll < 0.15) return "booking";
        if (op.typeOperation === "payOut" && roll < 0.15) return "pending_retry";
        return "in_progress";
      case "in_progress": {
        const rejected = op.recipient !== null && !isKnownBank(op.recipient.bankName);
        return rejected || roll >= 0.85 ? "failed" : "success";
      }
      default:
        return "in_progress";
    }
  }
}
