import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import {
  client,
  control,
  dataOf,
  eventually,
  list,
  move,
  n,
  payinBody,
  payoutBody,
  startReceiver,
  startSandbox,
  str,
  text,
  tokenOf,
} from "./helpers";

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});
afterEach(async () => {
  await control(sandbox, "DELETE", "/faults");
});

function rawPost(path: string, body: unknown): Promise<Response> {
  return fetch(`${sandbox.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokenOf(sandbox, "demo")}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function jsonPayin(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...payinBody(), amount: 5000, ...overrides };
}

describe("Controls › PUT /__sandbox/faults: latency", () => {
  it("delays Merchant API answers, not the controls", async () => {
    await control(sandbox, "PUT", "/faults", { latencyMs: 150 });
    let started = performance.now();
    expect((await client(sandbox).get("/balance")).body.status).toBe("Success");
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    started = performance.now();
    await control(sandbox, "GET", "/faults");
    expect(performance.now() - started).toBeLessThan(140);
  });
});

describe("Controls › PUT /__sandbox/faults: error rate", () => {
  it("http500: answers 500 with a problem body, and nothing is applied", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 1, errorMode: "http500" });
    const body = jsonPayin();
    const res = await rawPost("/host2host/payin", body);
    expect(res.status).toBe(500);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 500 });
    expect("traceID" in problem).toBe(false);
    await control(sandbox, "DELETE", "/faults");
    expect((await client(sandbox).post("/host2host/payin", body)).body.status).toBe("Success");
  });

  it("drop: the connection is closed without an answer, and nothing is applied", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 1, errorMode: "drop" });
    const body = jsonPayin();
    await expect(rawPost("/host2host/payin", body)).rejects.toThrow();
    await control(sandbox, "DELETE", "/faults");
    expect((await client(sandbox).post("/host2host/payin", body)).body.status).toBe("Success");
    const log = list((await control(sandbox, "GET", "/requests?limit=5")).body);
    expect(log.some((entry) => text(entry.fault) === "drop" && entry.httpStatus === null)).toBe(true);
  });

  it("a fractional rate with a seed fails some requests and passes others", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 0.5, seed: 7 });
    const statuses: number[] = [];
    for (let index = 0; index < 40; index++)
      statuses.push(
        (
          await fetch(`${sandbox.url}/balance`, {
            headers: { authorization: `Bearer ${tokenOf(sandbox, "demo")}` },
          })
        ).status,
      );
    const failures = statuses.filter((status) => status === 500).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
    expect(statuses.filter((status) => status === 200).length).toBe(40 - failures);
  });

  it("does not apply to the /__sandbox/ controls", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 1, errorMode: "drop" });
    expect((await control(sandbox, "GET", "/merchants")).status).toBe(200);
  });
});

describe("Controls › PUT /__sandbox/faults: commit then drop", () => {
  it("the pay-in is created but the answer is lost; resending the same id gives duplicateIdentifier", async () => {
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const body = jsonPayin();
    await expect(rawPost("/host2host/payin", body)).rejects.toThrow();
    expect((await client(sandbox).get("/balance")).body.status).toBe("Success");
    await control(sandbox, "DELETE", "/faults");
    const again = await client(sandbox).post("/host2host/payin", body);
    expect(again.body.codeError).toBe("duplicateIdentifier");
    const found = await client(sandbox).get(
      `/operation/operation/merhcant/${String(body.idTransactionMerchant)}`,
    );
    expect(list(found.body.data)).toHaveLength(1);
    expect(list(found.body.data)[0]?.status).toBe("created");
  });

  it("a dropped pay-out has reserved the balance", async () => {
    const balance = async (): Promise<string> =>
      /"amountInCurrencyBalance":([\d.]+)/.exec((await client(sandbox).get("/balance")).text)?.[1] ?? "";
    const before = await balance();
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const body = payoutBody({ amount: 955 });
    await expect(rawPost("/host2host/payout", body)).rejects.toThrow();
    await control(sandbox, "DELETE", "/faults");
    expect(await balance()).not.toBe(before);
    const found = await client(sandbox).get(
      `/operation/operation/merhcant/${String(body.idTransactionMerchant)}`,
    );
    expect(list(found.body.data)[0]).toMatchObject({ typeOperation: "payOut", amount: 955 });
  });

  it("rejected creations are answered normally (nothing was committed)", async () => {
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const res = await client(sandbox).post("/host2host/payin", payinBody({ clientIP: "0.0.0.0" }));
    expect(res.body.codeError).toBe("fraud");
  });
});

describe("Controls › PUT /__sandbox/faults: webhooks", () => {
  async function payin(): Promise<string> {
    return str(
      dataOf(
        await client(sandbox).post(
          "/host2host/payin",
          payinBody({ amount: n("100"), integrationMerhcnatData: { webHook: receiver.url } }),
        ),
      ).id,
    );
  }
  const hooksFor = (id: string) => receiver.received.filter((hook) => text(hook.json.data?.id) === id);

  it("duplicates: each event is sent N times (same event id in the log)", async () => {
    await control(sandbox, "PUT", "/faults", { webhookDuplicates: 3 });
    const id = await payin();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(3));
    const log = list((await control(sandbox, "GET", `/webhooks?operationId=${id}`)).body);
    expect(log.map((delivery) => delivery.copy)).toEqual([1, 2, 3]);
    expect(new Set(log.map((delivery) => delivery.eventId)).size).toBe(1);
  });

  it("reordering: events of a short window arrive in reverse order", async () => {
    await control(sandbox, "PUT", "/faults", { webhookReorder: true, webhookReorderWindowMs: 200 });
    const id = await payin();
    await move(sandbox, id, "booking", "in_progress", "success");
    await eventually(() => expect(hooksFor(id)).toHaveLength(3));
    expect(hooksFor(id).map((hook) => hook.json.data?.status)).toEqual(["success", "in_progress", "booking"]);
  });

  it("delay: the event is held for the configured time", async () => {
    await control(sandbox, "PUT", "/faults", { webhookDelayMs: 300 });
    const id = await payin();
    const moved = performance.now();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    expect((hooksFor(id)[0]?.at ?? 0) - moved).toBeGreaterThanOrEqual(280);
  });
});

describe("Controls › GET, PUT and DELETE /__sandbox/faults", () => {
  it("PUT sets the whole configuration, GET shows it, DELETE clears it, bad bodies give 400", async () => {
    const set = await control(sandbox, "PUT", "/faults", { latencyMs: 10, errorRate: 0.25 });
    expect(set.body).toMatchObject({
      latencyMs: 10,
      errorRate: 0.25,
      errorMode: "http500",
      commitThenDropRate: 0,
      webhookDuplicates: 1,
    });
    expect((await control(sandbox, "GET", "/faults")).body).toMatchObject({ latencyMs: 10 });
    expect((await control(sandbox, "DELETE", "/faults")).body).toMatchObject({ latencyMs: 0, errorRate: 0 });
    expect((await control(sandbox, "PUT", "/faults", { errorRate: 2 })).status).toBe(400);
    expect((await control(sandbox, "PUT", "/faults", { unknownFault: true })).status).toBe(400);
  });
});
