import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  startReceiver,
  startSandbox,
  str,
  text,
  tokenOf,
} from "./helpers";

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "sandbox-state-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("Running it › state survives a restart (stateFile)", () => {
  it("keeps tokens, operations, balances, settings, held details and the webhook log", async () => {
    const stateFile = join(directory, "state.json");
    const receiver = await startReceiver();
    const first = await startSandbox({ stateFile });
    const tokens = { demo: tokenOf(first, "demo"), other: tokenOf(first, "other") };
    await control(first, "PATCH", "/merchants/other", {
      detailsPoolOverrides: { sbp: 1 },
      dialect: "spec",
      maxTake: 50,
    });
    await control(first, "POST", "/merchants/other/balance", { amount: "500.1234" });
    const held = dataOf(
      await client(first, "other").post(
        "/host2host/payin",
        payinBody({ paymentMethod: "sbp", integrationMerhcnatData: { webHook: receiver.url } }),
      ),
    );
    const settled = dataOf(
      await client(first, "other").post("/host2host/payin", payinBody({ amount: n("9600") })),
    );
    await move(first, str(settled.id), "in_progress", "success");
    const payout = dataOf(
      await client(first, "other").post("/host2host/payout", payoutBody({ amount: n("96") })),
    );
    await move(first, str(held.id), "in_progress");
    await receiver.waitFor(1);
    const listBefore = await client(first, "other").post("/operation/operation/list", { skip: 0, take: 50 });
    const demoListBefore = await client(first, "demo").post("/operation/operation/list", {
      skip: 0,
      take: 1000,
    });
    const balanceBefore = (await client(first, "other").get("/balance")).text.replace(
      /"traceID":"[^"]+"/,
      "",
    );
    await first.stop();

    const second = await startSandbox({ stateFile });
    try {
      expect(tokenOf(second, "demo")).toBe(tokens.demo);
      expect(tokenOf(second, "other")).toBe(tokens.other);
      const listAfter = await client(second, "other").post("/operation/operation/list", {
        skip: 0,
        take: 50,
      });
      expect(listAfter.body.data).toEqual(listBefore.body.data);
      expect(
        (await client(second, "demo").post("/operation/operation/list", { skip: 0, take: 1000 })).body.data,
      ).toEqual(demoListBefore.body.data);
      expect((await client(second, "other").get("/balance")).text.replace(/"traceID":"[^"]+"/, "")).toBe(
        balanceBefore,
      );
      const exhausted = await client(second, "other").post(
        "/host2host/payin",
        payinBody({ paymentMethod: "sbp" }),
      );
      expect(exhausted.body.codeError).toBe("noPaymentDetailsAvailable");
      const duplicate = await client(second, "other").post(
        "/host2host/payout",
        payoutBody({ idTransactionMerchant: payout.idTransactionMerchant }),
      );
      expect(duplicate.body.codeError).toBe("duplicateIdentifier");
      const deliveries = list((await control(second, "GET", `/webhooks?operationId=${str(held.id)}`)).body);
      expect(deliveries[0]).toMatchObject({ state: "delivered", operationStatus: "in_progress" });
      await move(second, str(payout.id), "in_progress", "failed");
      expect(list((await control(second, "GET", "/merchants")).body)[1]).toMatchObject({ maxTake: 50 });
    } finally {
      await second.stop();
      await receiver.close();
    }
  });

  it("saves within a short debounce after a change, as JSON Lines written atomically", async () => {
    const stateFile = join(directory, "debounce", "state.json");
    const sandbox = await startSandbox({ stateFile, seedDemoHistory: false });
    try {
      await eventually(async () => expect((await stat(stateFile)).size).toBeGreaterThan(0), 2_000);
      const op = dataOf(await client(sandbox).post("/host2host/payin", payinBody()));
      await eventually(async () => expect(await readFile(stateFile, "utf8")).toContain(str(op.id)), 2_000);
      const lines = (await readFile(stateFile, "utf8")).trim().split("\n");
      expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ type: "meta", version: 1 });
      for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    } finally {
      await sandbox.stop();
    }
  });
});

describe("States and transitions › autopilot (SANDBOX_AUTOPILOT=1)", () => {
  it("advances API operations on their own to a final status through the table, with webhooks; precreated ones wait", async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox({ autopilot: { minDelayMs: 5, maxDelayMs: 25 } });
    try {
      const api = client(sandbox);
      const ids: string[] = [];
      for (let index = 0; index < 12; index++) {
        ids.push(
          str(
            dataOf(
              await api.post(
                "/host2host/payin",
                payinBody({ integrationMerhcnatData: { webHook: receiver.url } }),
              ),
            ).id,
          ),
        );
      }
      for (let index = 0; index < 6; index++) {
        ids.push(
          str(
            dataOf(
              await api.post(
                "/host2host/payout",
                payoutBody({ amount: n("10"), integrationMerhcnatData: { webHook: receiver.url } }),
              ),
            ).id,
          ),
        );
      }
      const form = dataOf(await api.post("/paymentform/prepare", formBody()));
      await eventually(async () => {
        for (const id of ids)
          expect(["success", "failed"]).toContain(
            dataOf(await api.get(`/operation/operation/platform/${id}`)).status,
          );
      }, 10_000);
      // Webhooks may still be in flight when the reads show final statuses.
      await eventually(() => {
        for (const id of ids) {
          const statuses = receiver.received
            .filter((hook) => text(hook.json.data?.id) === id)
            .map((hook) => str(hook.json.data?.status));
          expect(statuses).toContain("in_progress");
          expect(statuses.filter((status) => status === "success" || status === "failed")).toHaveLength(1);
        }
      });
      expect(dataOf(await api.get(`/operation/operation/platform/${str(form.id)}`)).status).toBe(
        "precreated",
      );
    } finally {
      await sandbox.stop();
      await receiver.close();
    }
  });
});
