import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import {
  client,
  control,
  dataOf,
  formBody,
  move,
  n,
  payinBody,
  payoutBody,
  startSandbox,
  str,
} from "./helpers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const STATUSES = [
  "precreated",
  "created",
  "booking",
  "pending_retry",
  "in_progress",
  "success",
  "failed",
] as const;
type Status = (typeof STATUSES)[number];
type Direction = "payIn" | "payOut";

/** The spec's transitions table, written out independently of the implementation. */
const ALLOWED: Record<Direction, string[]> = {
  payIn: [
    "created>in_progress",
    "created>booking",
    "booking>in_progress",
    "in_progress>success",
    "in_progress>failed",
  ],
  payOut: [
    "created>in_progress",
    "created>pending_retry",
    "pending_retry>in_progress",
    "in_progress>success",
    "in_progress>failed",
  ],
};

const PATH_TO: Record<Direction, Partial<Record<Status, string[]>>> = {
  payIn: {
    created: [],
    booking: ["booking"],
    in_progress: ["in_progress"],
    success: ["in_progress", "success"],
    failed: ["in_progress", "failed"],
  },
  payOut: {
    created: [],
    pending_retry: ["pending_retry"],
    in_progress: ["in_progress"],
    success: ["in_progress", "success"],
    failed: ["in_progress", "failed"],
  },
};

async function operationIn(direction: Direction, status: Status): Promise<string> {
  const api = client(sandbox);
  if (status === "precreated") return str(dataOf(await api.post("/paymentform/prepare", formBody())).id);
  const created =
    direction === "payIn"
      ? await api.post("/host2host/payin", payinBody())
      : await api.post("/host2host/payout", payoutBody({ amount: n("10") }));
  const id = str(dataOf(created).id);
  await move(sandbox, id, ...(PATH_TO[direction][status] ?? []));
  return id;
}

const cases: Array<[Direction, Status, Status, boolean]> = [];
for (const direction of ["payIn", "payOut"] as const) {
  for (const from of STATUSES) {
    if (from === "precreated" && direction === "payOut") continue;
    if (from !== "precreated" && PATH_TO[direction][from] === undefined) continue;
    for (const to of STATUSES)
      cases.push([direction, from, to, ALLOWED[direction].includes(`${from}>${to}`)]);
  }
}

describe("States and transitions › control endpoint POST /__sandbox/operations/{id}/status", () => {
  test.each(cases)("%s %s -> %s allowed: %s", async (direction, from, to, allowed) => {
    const id = await operationIn(direction, from);
    const res = await control(sandbox, "POST", `/operations/${id}/status`, { status: to });
    if (allowed) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: to });
    } else {
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual(expect.any(String));
      const read = dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`));
      expect(read.status).toBe(from);
    }
  });

  it("a move updates dateUpdated (the moment of the last status change) and keeps dateAdded", async () => {
    const id = await operationIn("payIn", "created");
    const before = dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await move(sandbox, id, "in_progress");
    const after = dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`));
    expect(after.dateAdded).toBe(before.dateAdded);
    expect(Date.parse(str(after.dateUpdated))).toBeGreaterThan(Date.parse(str(before.dateUpdated)));
  });

  it("Test merchant: an operation stays created until moved", async () => {
    const id = await operationIn("payIn", "created");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dataOf(await client(sandbox).get(`/operation/operation/platform/${id}`)).status).toBe("created");
  });

  it("an unknown status gives 400 and an unknown operation 404", async () => {
    const id = await operationIn("payIn", "created");
    expect((await control(sandbox, "POST", `/operations/${id}/status`, { status: "done" })).status).toBe(400);
    expect(
      (
        await control(sandbox, "POST", "/operations/00000000-0000-4000-8000-000000000000/status", {
          status: "in_progress",
        })
      ).status,
    ).toBe(404);
  });
});

async function getPage(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${sandbox.url}${path}`);
  return { status: res.status, html: await res.text() };
}

describe("Endpoints › POST /paymentform/prepare", () => {
  it("Rule 2: returns linkPaymentForm and status precreated; the operation stays precreated until the client selects a method", async () => {
    const op = dataOf(await client(sandbox).post("/paymentform/prepare", formBody({ amount: n("2500") })));
    expect(op).toMatchObject({
      typeOperation: "payIn",
      status: "precreated",
      amount: 2500,
      paymentDetailsData: null,
    });
    expect(op.linkPaymentForm).toBe(`${sandbox.url}/payment/${str(op.id)}`);
    expect(dataOf(await client(sandbox).get(`/operation/operation/platform/${str(op.id)}`)).status).toBe(
      "precreated",
    );

    const page = await getPage(`/payment/${str(op.id)}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('value="sbp"');

    const selected = await fetch(`${sandbox.url}/payment/${str(op.id)}/select`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "method=sbp",
      redirect: "manual",
    });
    expect(selected.status).toBe(303);
    const read = dataOf(await client(sandbox).get(`/operation/operation/platform/${str(op.id)}`));
    expect(read.status).toBe("created");
    expect(read.paymentDetailsData).toMatchObject({ paymentMethod: "sbp" });
    const after = await getPage(`/payment/${str(op.id)}`);
    expect(after.html).toContain(str(read.paymentDetailsData?.number));
  });

  it("Rule 1: redirect URLs come from the request, else from the merchant settings", async () => {
    const given = dataOf(
      await client(sandbox).post(
        "/paymentform/prepare",
        formBody({ integrationMerhcnatData: { redirectGeneralURL: "https://shop.example/back?a=1&b=2" } }),
      ),
    );
    expect((await getPage(`/payment/${str(given.id)}`)).html).toContain(
      "https://shop.example/back?a=1&amp;b=2",
    );
    const fallback = dataOf(await client(sandbox).post("/paymentform/prepare", formBody()));
    expect((await getPage(`/payment/${str(fallback.id)}`)).html).toContain("http://localhost:3000/");
  });

  it("a method without free details cannot be selected; the operation stays precreated", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { detailsPoolOverrides: { mobile: 0 } });
    const op = dataOf(await client(sandbox).post("/paymentform/prepare", formBody()));
    const res = await fetch(`${sandbox.url}/payment/${str(op.id)}/select`, {
      method: "POST",
      body: "method=mobile",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(res.headers.get("location")).toContain("error=");
    expect(dataOf(await client(sandbox).get(`/operation/operation/platform/${str(op.id)}`)).status).toBe(
      "precreated",
    );
  });

  it("a precreated operation is not moved by the control endpoint (only the form selects a method)", async () => {
    const op = dataOf(await client(sandbox).post("/paymentform/prepare", formBody()));
    const res = await control(sandbox, "POST", `/operations/${str(op.id)}/status`, { status: "created" });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("payment form");
  });

  it("the page escapes merchant-supplied text", async () => {
    const op = dataOf(
      await client(sandbox).post(
        "/paymentform/prepare",
        formBody({ idTransactionMerchant: `<script>alert(1)</script>-${Date.now()}` }),
      ),
    );
    const page = await getPage(`/payment/${str(op.id)}`);
    expect(page.html).not.toContain("<script>alert(1)</script>");
    expect(page.html).toContain("&lt;script&gt;");
  });

  it("an unknown payment link gives 404", async () => {
    expect((await getPage("/payment/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("Endpoints › POST /paymentform/full", () => {
  it("creates the operation with the fixed method; the form shows the details", async () => {
    const op = dataOf(await client(sandbox).post("/paymentform/full", formBody({ paymentMethod: "toCard" })));
    expect(op).toMatchObject({
      typeOperation: "payIn",
      status: "created",
      paymentDetailsData: { paymentMethod: "toCard" },
    });
    expect(op.linkPaymentForm).toBe(`${sandbox.url}/payment/${str(op.id)}`);
    const page = await getPage(`/payment/${str(op.id)}`);
    expect(page.html).toContain(str(op.paymentDetailsData?.number));
  });

  it("with ecom, linkPaymentForm is a 3-D Secure page", async () => {
    const op = dataOf(await client(sandbox).post("/paymentform/full", formBody({ paymentMethod: "ecom" })));
    expect(op.linkPaymentForm).toBe(`${sandbox.url}/3ds/${str(op.id)}`);
    const page = await getPage(`/3ds/${str(op.id)}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("3-D Secure");
  });

  it("the tariff and details rules apply as for pay-in", async () => {
    const res = await client(sandbox).post("/paymentform/full", formBody({ paymentMethod: "azn_c2c" }));
    expect(res.body.codeError).toBe("noSuitableTariffForRequest");
  });
});
