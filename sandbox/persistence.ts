import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Delivery } from "./webhooks";
import type { BalanceCredit, MerchantSettings, Operation } from "./types";

/**
 * The state file is JSON Lines: a `meta` line, then one line per merchant, operation and webhook
 * delivery. Line by line keeps a million operations within reach of JSON.parse. Writes go to a
 * temporary file that is renamed over the old one, so a crash never leaves half a file.
 */

const VERSION = 1;

export interface SavedState {
  secret: string;
  tokenIssuedAt: number;
  seedCounter: number;
  merchants: Array<{ settings: MerchantSettings; credits: BalanceCredit[] }>;
  operations: Iterable<Operation>;
  deliveries: Delivery[];
}

export interface LoadedState extends SavedState {
  operations: Operation[];
}

type Line =
  | { type: "meta"; version: number; secret: string; tokenIssuedAt: number; seedCounter: number }
  | { type: "merchant"; settings: MerchantSettings; credits: BalanceCredit[] }
  | ({ type: "operation" } & Operation)
  | ({ type: "delivery" } & Delivery);

export async function saveState(file: string, state: SavedState): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary, { encoding: "utf8" });
  const write = async (line: Line): Promise<void> => {
    if (!out.write(JSON.stringify(line) + "\n")) await once(out, "drain");
  };
  await write({
    type: "meta",
    version: VERSION,
    secret: state.secret,
    tokenIssuedAt: state.tokenIssuedAt,
    seedCounter: state.seedCounter,
  });
  for (const merchant of state.merchants) await write({ type: "merchant", ...merchant });
  for (const op of state.operations) await write({ type: "operation", ...op });
  for (const delivery of state.deliveries) await write({ type: "delivery", ...delivery });
  out.end();
  await once(out, "finish");
  await rename(temporary, file);
}

export async function loadState(file: string): Promise<LoadedState | undefined> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  const loaded: LoadedState = {
    secret: "",
    tokenIssuedAt: 0,
    seedCounter: 0,
    merchants: [],
    operations: [],
    deliveries: [],
  };
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const text of lines) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as Line;
    if (line.type === "meta") {
      if (line.version !== VERSION)
        throw new Error(`Sandbox state file ${file} has version ${line.version}, expected ${VERSION}`);
      Object.assign(loaded, {
        secret: line.secret,
        tokenIssuedAt: line.tokenIssuedAt,
        seedCounter: line.seedCounter,
      });
    } else if (line.type === "merchant") {
      loaded.merchants.push({ settings: line.settings, credits: line.credits });
    } else if (line.type === "operation") {
      const { type: _type, ...op } = line;
      loaded.operations.push(op);
    } else {
      const { type: _type, ...delivery } = line;
      loaded.deliveries.push(delivery);
    }
  }
  if (loaded.secret === "") throw new Error(`Sandbox state file ${file} has no meta line`);
  return loaded;
}

/** Debounced saving: a change is written within `delayMs`; saves never overlap; flush() waits for the last one. */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly delayMs = 200,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer === undefined && this.running === undefined)
      this.timer = setTimeout(() => void this.run(), this.delayMs);
  }

  async flush(): Promise<void> {
    for (;;) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      if (this.running !== undefined) await this.running;
      else if (this.dirty) await this.run();
      else return;
    }
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.dirty = false;
    this.running = this.save().catch(this.onError);
    await this.running;
    this.running = undefined;
    if (this.dirty) this.timer = setTimeout(() => void this.run(), this.delayMs);
  }
}
