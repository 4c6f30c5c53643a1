import { z } from "zod";
import { createRng, type Rng } from "./random";

/** Fault injection set by PUT /__sandbox/faults (cleared by DELETE). Rates of 0 never and 1 always fire. */

export const faultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000).default(0),
    errorRate: z.number().min(0).max(1).default(0),
    errorMode: z.enum(["http500", "drop"]).default("http500"),
    commitThenDropRate: z.number().min(0).max(1).default(0),
    internalErrorRate: z.number().min(0).max(1).default(0),
    webhookDuplicates: z.number().int().min(1).max(10).default(1),
    webhookReorder: z.boolean().default(false),
    webhookReorderWindowMs: z.number().int().min(1).max(60_000).default(300),
    webhookDelayMs: z.number().int().min(0).max(600_000).default(0),
    seed: z.number().int().optional(),
  })
  .strict();

export type Faults = z.infer<typeof faultsSchema>;

export const NO_FAULTS: Faults = faultsSchema.parse({});

export class FaultInjector {
  private current: Faults = NO_FAULTS;
  private rng: Rng = createRng();

  get config(): Faults {
    return this.current;
  }

  set(faults: Faults): void {
    this.current = faults;
    this.rng = createRng(faults.seed);
  }

  clear(): void {
    this.set(NO_FAULTS);
  }

  /** Draws whether a fault with the given rate fires for this request. */
  fires(rate: number): boolean {
    if (rate <= 0) return false;
    if (rate >= 1) return true;
    return this.rng() < rate;
  }
}
