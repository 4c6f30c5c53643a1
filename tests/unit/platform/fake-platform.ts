/**
 * A tiny HTTP fake of the platform for client tests: canned responses per route (consumed in order,
 * the last one repeats), slow answers, dropped connections, and a log of what was received.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeResponse {
  status?: number;
  /** Sent verbatim (write exact JSON text here, numbers included). */
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering (timeouts). */
  delayMs?: number;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
}

export type FakeStep = FakeResponse | ((req: ReceivedRequest) => FakeResponse);

export class FakePlatform {
  readonly received: ReceivedRequest[] = [];
  private readonly routes = new Map<string, FakeStep[]>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakePlatform> {
    let fake: FakePlatform | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const received: ReceivedRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        fake?.received.push(received);
        const step = fake?.next(received.method, received.path);
        const response =
          typeof step === "function" ? step(received) : (step ?? { status: 404, body: "no route" });
        const send = () => {
          if (response.drop) {
            req.socket.destroy();
            return;
          }
          if (res.destroyed) return;
          res.writeHead(response.status ?? 200, { "content-type": "application/json", ...response.headers });
          res.end(response.body ?? "");
        };
        if (response.delayMs) setTimeout(send, response.delayMs);
        else send();
      });
    });
    server.on("clientError", (_err, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakePlatform(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  /** Responses for `METHOD /path`, in order; the last one repeats. */
  route(method: string, path: string, ...steps: FakeStep[]): this {
    this.routes.set(`${method} ${path}`, steps);
    return this;
  }

  private next(method: string, path: string): FakeStep | undefined {
    const steps = this.routes.get(`${method} ${path}`);
    if (!steps || steps.length === 0) return undefined;
    return steps.length > 1 ? steps.shift() : steps[0];
  }

  reset(): void {
    this.received.length = 0;
    this.routes.clear();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---- canned bodies -------------------------------------------------------------------------------

export const TRACE = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const OP_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** Operation JSON text with exact numbers; `over` replaces whole `"key":value` members (raw JSON text). */
export function operationJson(over: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    id: `"${OP_ID}"`,
    dateAdded: `"2025-11-18T14:53:31.0796033Z"`,
    dateUpdated: `"2025-11-18T14:53:31.079Z"`,
    typeOperation: `"payIn"`,
    status: `"created"`,
    idTransactionMerchant: `"order-1"`,
    amountInitial: "62.50",
    amountRandomized: "62.50",
    amount: "62.50",
    amountComission: "1.875",
    currency: `"RUB"`,
    amountInCurrencyBalance: "0.6667",
    amountComissionInCurrencyBalance: "0.02",
    exchangeRate: "93.75",
    paymentDetailsData: `{"paymentMethod":"SBP","bankName":"Sber","nameMediator":"Ivan I.","number":"+79001234567","numberAdditional":null,"qRcode":null}`,
    ...over,
  };
  return `{${Object.entries(fields)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `"${k}":${v}`)
    .join(",")}}`;
}

export function specOk(dataJson: string, extra = ""): string {
  return `{"status":"Success","data":${dataJson},"traceID":"${TRACE}"${extra}}`;
}

export function specError(status: string, codeError: string, message: string): string {
  return JSON.stringify({ status, data: null, codeError, message, traceID: TRACE });
}

export function nestedOk(dataJson: string, total = 0): string {
  return `{"result":{"status":"success","x-request-id":"${TRACE}","codeError":"none","codeErrorExt":"none","message":""},"data":${dataJson},"totalNumberRecords":${total}}`;
}

export function nestedError(
  codeError: string,
  codeErrorExt: string,
  message: string,
  status = "warning",
): string {
  return JSON.stringify({
    result: { status, "x-request-id": TRACE, codeError, codeErrorExt, message },
    data: null,
    totalNumberRecords: 0,
  });
}
