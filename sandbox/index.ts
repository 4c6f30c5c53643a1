import type { AddressInfo } from "node:net";
import { Autopilot, type AutopilotTiming } from "./autopilot";
import { merchantView } from "./controls";
import { loadState, saveState, StateSaver } from "./persistence";
import { Platform } from "./platform";
import { createSandboxServer } from "./server";
import type { WebhookRetry } from "./webhooks";

/** Public entry of the platform sandbox. Nothing in app/ or lib/ imports it. */

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Persist the state in this file (JSON Lines); absent = memory only. */
  stateFile?: string;
  /** Operations advance on their own; `true` = 1..8 s per step. */
  autopilot?: boolean | AutopilotTiming;
  /**
   * Webhook redelivery: baseMs * 2^(n-1) (at most maxMs, when given) after the n-th failed attempt, at
   * most `attempts` attempts.
   */
  webhookRetry?: WebhookRetry;
  /** Time a webhook receiver has to answer (spec: 5 s). */
  webhookTimeoutMs?: number;
  /** Deliveries kept in the log (default 5,000, the oldest dropped first); tests that count them all raise it. */
  webhookLogCapacity?: number;
  /** Seed the demo merchant's history on a fresh state (default true). */
  seedDemoHistory?: boolean;
  now?: () => Date;
}

export interface SandboxMerchant {
  id: string;
  name: string;
  token: string;
  balanceCurrency: string;
  paymentCurrency: string;
  dialect: string;
  [setting: string]: unknown;
}

export interface Sandbox {
  url: string;
  port: number;
  merchants(): SandboxMerchant[];
  /** Writes pending state to the state file (no-op without one). */
  flush(): Promise<void>;
  stop(): Promise<void>;
  /** Direct access to the emulator, for tests that need to look inside. */
  platform: Platform;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = { baseMs: 2_000, attempts: 8 };
const DEFAULT_AUTOPILOT: AutopilotTiming = { minDelayMs: 1_000, maxDelayMs: 8_000 };

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const stateFile = options.stateFile;
  let saver: StateSaver | undefined;
  const platform = new Platform({
    now: options.now ?? (() => new Date()),
    webhookRetry: options.webhookRetry ?? DEFAULT_WEBHOOK_RETRY,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 5_000,
    webhookLogCapacity: options.webhookLogCapacity,
    seedDemoHistory: options.seedDemoHistory ?? true,
    onChange: () => saver?.markDirty(),
  });
  const loaded = stateFile === undefined ? undefined : await loadState(stateFile);
  if (stateFile !== undefined) {
    saver = new StateSaver(
      () => saveState(stateFile, platform.snapshot()),
      200,
      (error) => console.error("sandbox: could not save state", error),
    );
  }
  if (loaded === undefined) platform.resetToDefaults();
  else platform.restore(loaded);

  const timing =
    options.autopilot === true
      ? DEFAULT_AUTOPILOT
      : options.autopilot === false
        ? undefined
        : options.autopilot;
  const autopilot = timing === undefined ? undefined : new Autopilot(platform, timing);
  autopilot?.resume();

  let url = "";
  const server = createSandboxServer(platform, () => url);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    platform,
    merchants: () =>
      [...platform.state.merchants.values()].map(
        (merchant) => merchantView(merchant) as unknown as SandboxMerchant,
      ),
    flush: async () => saver?.flush(),
    stop: () => {
      stopping ??= (async () => {
        autopilot?.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await platform.webhooks.stop();
        await saver?.flush();
      })();
      return stopping;
    },
  };
}
