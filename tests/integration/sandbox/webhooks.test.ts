import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import {
  client,
  control,
  dataOf,
  eventually,
  formBody,
  list,
  move,
  n,
  payinBody,
  payoutBody,
  sleep,
  startReceiver,
  startSandbox,
  str,
  text,
  type J,
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
  await control(sandbox, "PATCH", "/merchants/demo", {
    webhookUrl: null,
    webhookBody: "envelope",
    webhookBearerToken: null,
    dialect: "spec",
  });
});

/** Creates a pay-in with the given webHook (null: none) and returns its id, in either dialect. */
async function payinWithHook(url: string | null = receiver.url): Promise<string> {
  const body = payinBody(url === null ? {} : { integrationMerhcnatData: { webHook: url } });
  return str((await client(sandbox).post("/host2host/payin", body)).body.data?.id);
}

function hooksFor(id: string): J[] {
  return receiver.received
    .filter((hook) => text(hook.json.data?.id ?? hook.json.id) === id)
    .map((hook) => hook.json);
}

async function deliveries(id: string): Promise<J[]> {
  return list((await control(sandbox, "GET", `/webhooks?operationId=${id}`)).body);
}

describe("Events › Event emission", () => {
  it("created -> in_progress and in_progress -> success give one event each, in order", async () => {
    const id = await payinWithHook();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    await move(sandbox, id, "success");
    await eventually(() =>
      expect(hooksFor(id).map((hook) => hook.data?.status)).toEqual(["in_progress", "success"]),
    );
  });

  it("in_progress -> failed gives the final event", async () => {
    const id = await payinWithHook();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    await move(sandbox, id, "failed");
    await eventually(() =>
      expect(hooksFor(id).map((hook) => hook.data?.status)).toEqual(["in_progress", "failed"]),
    );
    const final = hooksFor(id)[1];
    expect(final?.data).toMatchObject({ amountComission: 0, amountInCurrencyBalance: 0, exchangeRate: 0 });
  });

  it("every move through booking gives an additional event (pay-in)", async () => {
    const id = await payinWithHook();
    for (const [status, count] of [
      ["booking", 1],
      ["in_progress", 2],
      ["success", 3],
    ] as const) {
      await move(sandbox, id, status);
      await eventually(() => expect(hooksFor(id)).toHaveLength(count));
    }
    expect(hooksFor(id).map((hook) => hook.data?.status)).toEqual(["booking", "in_progress", "success"]);
  });

  it("every move through pending_retry gives an additional event (pay-out)", async () => {
    const res = await client(sandbox).post(
      "/host2host/payout",
      payoutBody({ amount: n("10"), integrationMerhcnatData: { webHook: receiver.url } }),
    );
    const id = str(dataOf(res).id);
    for (const [status, count] of [
      ["pending_retry", 1],
      ["in_progress", 2],
      ["success", 3],
    ] as const) {
      await move(sandbox, id, status);
      await eventually(() => expect(hooksFor(id)).toHaveLength(count));
    }
    const events = hooksFor(id);
    expect(events.map((hook) => hook.data?.status)).toEqual(["pending_retry", "in_progress", "success"]);
    expect(events[0]?.data?.paymentDetailsData).toBeNull();
  });

  it("no event at creation, on service-field changes, or when the form client picks a method", async () => {
    const id = await payinWithHook();
    await control(sandbox, "PATCH", "/merchants/demo", {
      commission: { payIn: "3" },
      webhookUrl: receiver.url,
    });
    await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1" });
    const form = dataOf(
      await client(sandbox).post(
        "/paymentform/prepare",
        formBody({ integrationMerhcnatData: { webHook: receiver.url } }),
      ),
    );
    await fetch(`${sandbox.url}/payment/${str(form.id)}/select`, {
      method: "POST",
      body: "method=sbp",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    await sleep(150);
    expect(hooksFor(id)).toHaveLength(0);
    expect(hooksFor(str(form.id))).toHaveLength(0);
    expect(await deliveries(id)).toHaveLength(0);
  });
});

describe("Events › Target URL", () => {
  it("Rule 1: the operation's webHook wins over the merchant's URL", async () => {
    const other = await startReceiver();
    try {
      await control(sandbox, "PATCH", "/merchants/demo", { webhookUrl: other.url });
      const id = await payinWithHook(receiver.url);
      await move(sandbox, id, "in_progress");
      await eventually(() => expect(hooksFor(id)).toHaveLength(1));
      await sleep(50);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it("Rule 2: absent or invalid webHook -> the merchant's URL", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { webhookUrl: receiver.url });
    const absent = await payinWithHook(null);
    const invalid = await payinWithHook("not a url");
    await move(sandbox, absent, "in_progress");
    await move(sandbox, invalid, "in_progress");
    await eventually(() => {
      expect(hooksFor(absent)).toHaveLength(1);
      expect(hooksFor(invalid)).toHaveLength(1);
    });
    expect((await deliveries(absent))[0]?.url).toBe(receiver.url);
  });

  it("Rule 3: with neither, no delivery happens", async () => {
    const id = await payinWithHook(null);
    await move(sandbox, id, "in_progress", "success");
    await sleep(100);
    expect(await deliveries(id)).toHaveLength(0);
    expect(dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`)).status).toBe("success");
  });
});

describe("Events › Format", () => {
  it("Rules 1-2: POST application/json, body = the by-id read in the envelope, with its own traceID", async () => {
    const id = await payinWithHook();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    const hook = receiver.received.find((candidate) => text(candidate.json.data?.id) === id);
    expect(hook?.headers["content-type"]).toBe("application/json");
    expect(hook?.headers.authorization).toBeUndefined();
    expect(hook?.json.status).toBe("Success");
    expect(hook?.json.traceID).toMatch(/^[0-9a-f-]{36}$/);
    const read = dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`));
    expect(hook?.json.data).toEqual(read);
  });

  it("wire notes: the nested dialect wraps the event in the nested envelope", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { dialect: "nested" });
    // Nested dialect: a pay-in is created in_progress already (wire notes), so its first event is final.
    const id = await payinWithHook();
    await move(sandbox, id, "success");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    const body = hooksFor(id)[0];
    expect(body?.result).toMatchObject({ status: "success", codeError: "none", codeErrorExt: "none" });
    expect(body?.data).toMatchObject({ id, status: "success" });
  });

  it("wire notes: the bare body with a static bearer token", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", {
      webhookBody: "bare",
      webhookBearerToken: "hook-secret-1",
    });
    const id = await payinWithHook();
    await move(sandbox, id, "in_progress");
    await eventually(() => expect(hooksFor(id)).toHaveLength(1));
    const hook = receiver.received.find((candidate) => text(candidate.json.id) === id);
    expect(hook?.json).toMatchObject({ id, status: "in_progress", typeOperation: "payIn" });
    expect("status" in (hook?.json ?? {}) && "data" in (hook?.json ?? {})).toBe(false);
    expect(hook?.headers.authorization).toBe("Bearer hook-secret-1");
  });
});

describe("Events › Receiver requirements: redelivery with exponential backoff", () => {
  it("Rule 2: a receiver failing twice gets three attempts with growing gaps (base 20 ms, then 40 ms)", async () => {
    const flaky = await startReceiver((index) => (index < 2 ? 500 : 200));
    try {
      const id = await payinWithHook(flaky.url);
      await move(sandbox, id, "in_progress");
      await flaky.waitFor(3);
      await eventually(async () => expect((await deliveries(id))[0]?.state).toBe("delivered"));
      const [delivery] = await deliveries(id);
      const attempts = list(delivery?.attempts);
      expect(attempts.map((attempt) => attempt.httpStatus)).toEqual([500, 500, 200]);
      const times = attempts.map((attempt) => Date.parse(str(attempt.at)));
      const gaps = [(times[1] ?? 0) - (times[0] ?? 0), (times[2] ?? 0) - (times[1] ?? 0)];
      expect(gaps[0]).toBeGreaterThanOrEqual(19);
      expect(gaps[1]).toBeGreaterThanOrEqual(39);
      const arrivals = flaky.received.map((hook) => hook.at);
      expect((arrivals[2] ?? 0) - (arrivals[1] ?? 0)).toBeGreaterThan(
        (arrivals[1] ?? 0) - (arrivals[0] ?? 0),
      );
    } finally {
      await flaky.close();
    }
  });

  it("gives up after the configured number of attempts and logs each one", async () => {
    const down = await startReceiver(() => 503);
    try {
      const id = await payinWithHook(down.url);
      await move(sandbox, id, "in_progress");
      await eventually(async () => expect((await deliveries(id))[0]?.state).toBe("failed"));
      const [delivery] = await deliveries(id);
      expect(list(delivery?.attempts).map((attempt) => attempt.httpStatus)).toEqual([503, 503, 503, 503]);
      expect(down.received).toHaveLength(4);
    } finally {
      await down.close();
    }
  });

  it("a dropped connection and a refused connection count as failures and are redelivered", async () => {
    const dropping = await startReceiver((index) => (index === 0 ? "drop" : 204));
    try {
      const id = await payinWithHook(dropping.url);
      await move(sandbox, id, "in_progress");
      await eventually(async () => expect((await deliveries(id))[0]?.state).toBe("delivered"));
      const attempts = list((await deliveries(id))[0]?.attempts);
      expect(attempts[0]?.httpStatus).toBeNull();
      expect(attempts[0]?.error).toEqual(expect.any(String));
      expect(attempts[1]?.httpStatus).toBe(204);
    } finally {
      await dropping.close();
    }
    const closed = await startReceiver();
    const closedUrl = closed.url;
    await closed.close();
    const id = await payinWithHook(closedUrl);
    await move(sandbox, id, "in_progress");
    await eventually(async () => expect((await deliveries(id))[0]?.state).toBe("failed"));
    expect(list((await deliveries(id))[0]?.attempts).every((attempt) => attempt.error !== null)).toBe(true);
  });

  it("Rule 1: a receiver that does not answer in time is redelivered (timeout)", async () => {
    const quick = await startSandbox({ webhookTimeoutMs: 150 });
    const slow = await startReceiver((index) => (index === 0 ? "hang" : 200));
    try {
      const res = await client(quick).post(
        "/host2host/payin",
        payinBody({ integrationMerhcnatData: { webHook: slow.url } }),
      );
      const id = str(dataOf(res).id);
      await move(quick, id, "in_progress");
      await eventually(async () =>
        expect(list((await control(quick, "GET", `/webhooks?operationId=${id}`)).body)[0]?.state).toBe(
          "delivered",
        ),
      );
      const attempts = list(
        list((await control(quick, "GET", `/webhooks?operationId=${id}`)).body)[0]?.attempts,
      );
      expect(attempts[0]?.error).toMatch(/150 ms/);
      expect(attempts[1]?.httpStatus).toBe(200);
    } finally {
      await quick.stop();
      await slow.close();
    }
  });
});
