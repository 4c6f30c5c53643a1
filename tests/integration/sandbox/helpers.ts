import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LosslessNumber, parse, stringify } from "lossless-json";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../../sandbox/index";

/** Test helpers: a sandbox per file, a Merchant API client, control calls and a webhook receiver. */

export const FAST_RETRY = { baseMs: 20, attempts: 4 };

export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ port: 0, webhookRetry: FAST_RETRY, ...options });
}

/** A JSON number with exactly this text on the wire ("62.50", "1e3"). */
export function n(text: string): LosslessNumber {
  return new LosslessNumber(text);
}

export function json(value: unknown): string {
  return stringify(value) ?? "null";
}

/** A parsed JSON value, indexable at any depth (tests compare leaves with expect). */
export type J = { readonly [key: string]: J };

export function str(value: J | undefined): string {
  if (typeof value !== "string") throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

/** The value when it is a string, else undefined (for comparisons). */
export function text(value: J | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function list(value: J | undefined): J[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value as J[];
}

export interface ApiResponse {
  httpStatus: number;
  text: string;
  /** Parsed with JSON.parse (numbers as JS numbers: fine for ids, statuses and small figures). */
  body: J;
  /** Parsed keeping numbers as LosslessNumber, to check their literal text. */
  exact: unknown;
}

export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; contentType?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.token !== null && options.token !== undefined)
    headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : json(options.body);
    headers["content-type"] = options.contentType ?? "application/json";
  }
  const res = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed = {} as J;
  let exact: unknown = undefined;
  try {
    parsed = JSON.parse(text) as J;
    exact = parse(text);
  } catch {
    // Not JSON (HTML page, empty body): keep the text.
  }
  return { httpStatus: res.status, text, body: parsed, exact };
}

export function tokenOf(sandbox: Sandbox, merchantId: string): string {
  const merchant = sandbox.merchants().find((candidate) => candidate.id === merchantId);
  if (merchant === undefined) throw new Error(`no merchant ${merchantId}`);
  return merchant.token;
}

/** A Merchant API client bound to one merchant. */
export function client(sandbox: Sandbox, merchantId = "demo") {
  const token = tokenOf(sandbox, merchantId);
  return {
    token,
    post: (path: string, body: unknown) => call(sandbox, "POST", path, { token, body }),
    get: (path: string) => call(sandbox, "GET", path, { token }),
  };
}

export async function control(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: J }> {
  const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === "" ? {} : JSON.parse(text)) as J };
}

let sequence = 0;

export function uniqueId(prefix = "order"): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence}`;
}

export const CLIENT = {
  clientID: "client-7f3a9",
  clientIP: "203.0.113.7",
  clientDateCreated: "2024-03-01T10:00:00Z",
};

export function payinBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paymentMethod: "toCard",
    idTransactionMerchant: uniqueId("in"),
    amount: n("5000"),
    ...CLIENT,
    clientID: uniqueId("client"),
    ...overrides,
  };
}

export function payoutBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paymentMethod: "toCard",
    idTransactionMerchant: uniqueId("out"),
    amount: n("1000"),
    ...CLIENT,
    clientID: uniqueId("client"),
    number: "2200700012345678",
    bankName: "Т-Банк",
    nameMediator: "Иван Иванов",
    ...overrides,
  };
}

export function formBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    idTransactionMerchant: uniqueId("form"),
    amount: n("2500"),
    ...CLIENT,
    clientID: uniqueId("client"),
    ...overrides,
  };
}

/** Moves an operation through the control endpoint and fails the test when refused. */
export async function move(sandbox: Sandbox, id: string, ...statuses: string[]): Promise<void> {
  for (const status of statuses) {
    const res = await control(sandbox, "POST", `/operations/${id}/status`, { status });
    if (res.status !== 200) throw new Error(`move to ${status} refused: ${JSON.stringify(res.body)}`);
  }
}

export function dataOf(response: ApiResponse): J {
  if ((response.body.status as unknown) !== "Success")
    throw new Error(`expected Success, got ${response.text}`);
  return response.body.data as J;
}

export interface ReceivedHook {
  at: number;
  headers: IncomingMessage["headers"];
  body: string;
  json: J;
}

/** A webhook receiver on a free port; `respond` decides the HTTP status of each request (by its index). */
export async function startReceiver(respond: (index: number) => number | "hang" | "drop" = () => 200) {
  const received: ReceivedHook[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const index = received.length;
      received.push({ at: performance.now(), headers: req.headers, body, json: JSON.parse(body) as J });
      for (const wake of waiters.splice(0)) wake();
      const answer = respond(index);
      if (answer === "hang") return;
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    /** Resolves once `count` requests arrived (or rejects after timeoutMs). */
    async waitFor(count: number, timeoutMs = 5_000): Promise<ReceivedHook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} webhooks`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the check passes (polling), or throws its last error. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(25);
    }
  }
}
