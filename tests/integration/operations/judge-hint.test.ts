// How a webhook (a hint, never trusted on its own word) is judged against the mirror: the outcome, the
// fields that differ and the reason a read-back must confirm it, written out for every branch and at
// the edges of the clock-skew allowance and of the mirrored time.
import { describe, expect, it } from "vitest";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import { incomingSnapshot, judgeSnapshot, SKEW_MS } from "@/lib/operations/mirror/apply-snapshot";
import { fieldsOfSnapshot, MIRRORED_FIELDS, type MirrorFields } from "@/lib/operations/mirror/mirror-fields";
import type { MirrorState } from "@/lib/operations/mirror/mirror-state";
import { snapshot } from "../../support/operations";

const ID = "7e0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
const t = (text: string) => new Date(`2027-05-04T08:${text}Z`);

type Side = { status: OperationStatus; dateUpdated: Date | null; amount?: string };

function operation(side: Side) {
  return { ...snapshot({ id: ID, status: side.status, amount: side.amount }), dateUpdated: side.dateUpdated };
}

function mirror(side: Side & { lastSource: SnapshotSource; receivedAt: Date }): MirrorState {
  const fields = fieldsOfSnapshot(operation(side));
  return {
    status: side.status,
    dateUpdated: side.dateUpdated,
    lastSource: side.lastSource,
    receivedAt: side.receivedAt,
    fields: Object.fromEntries(MIRRORED_FIELDS.map((f) => [f, fields[f] ?? null])) as MirrorFields,
    kept: { paymentMethod: null, details: null, linkPaymentForm: null },
  };
}

const hint = (side: Side, receivedAt: Date) => incomingSnapshot(operation(side), "webhook", receivedAt);

// The mirror as a read-back left it: in progress since 08:05, read at 08:10.
const readBack = mirror({
  status: "in_progress",
  dateUpdated: t("05:00.000"),
  lastSource: "readBack",
  receivedAt: t("10:00.000"),
});

describe("a webhook is judged, never applied on its word when it matters", () => {
  it("an operation the mirror does not have: confirm it, nothing to compare", () => {
    expect(
      judgeSnapshot(null, hint({ status: "created", dateUpdated: t("01:00.000") }, t("01:00.000"))),
    ).toEqual({
      outcome: "unconfirmed",
      differences: [],
      reason: { why: "notMirrored" },
    });
  });

  it.each(["success", "failed"] as const)("a final status (%s): confirm it, with what differs", (status) => {
    expect(judgeSnapshot(readBack, hint({ status, dateUpdated: t("06:00.000") }, t("11:00.000")))).toEqual({
      outcome: "unconfirmed",
      differences: ["status", "dateUpdated"],
      reason: { why: "finalStatus", status },
    });
  });

  it("the same as the mirror: unchanged", () => {
    expect(
      judgeSnapshot(readBack, hint({ status: "in_progress", dateUpdated: t("05:00.000") }, t("11:00.000"))),
    ).toEqual({ outcome: "unchanged", differences: [] });
  });

  it("after a final status: stale", () => {
    const final = mirror({
      status: "success",
      dateUpdated: t("05:00.000"),
      lastSource: "readBack",
      receivedAt: t("10:00.000"),
    });
    expect(
      judgeSnapshot(final, hint({ status: "in_progress", dateUpdated: t("09:00.000") }, t("11:00.000"))),
    ).toEqual({
      outcome: "stale",
      differences: ["status", "dateUpdated"],
    });
  });

  it("after a final status, even with other amounts: stale, no read-back asked for", () => {
    const final = mirror({
      status: "failed",
      dateUpdated: t("05:00.000"),
      lastSource: "webhook",
      receivedAt: t("05:00.000"),
    });
    expect(
      judgeSnapshot(
        final,
        hint({ status: "in_progress", dateUpdated: t("09:00.000"), amount: "10" }, t("11:00.000")),
      ),
    ).toEqual({
      outcome: "stale",
      differences: ["status", "dateUpdated", "amountInitial", "amountRandomized", "amount"],
    });
  });

  // A later status than the mirror's: a hint of the mirrored status is no news whatever its date.
  const createdByRead = mirror({
    status: "created",
    dateUpdated: t("05:00.000"),
    lastSource: "readBack",
    receivedAt: t("10:00.000"),
  });

  it("arrived before the read the mirror holds: stale; arrived at the same moment: judged by its date", () => {
    const newer = { status: "in_progress", dateUpdated: t("06:00.000") } as const;
    expect(judgeSnapshot(createdByRead, hint(newer, t("09:59.999"))).outcome).toBe("stale");
    expect(judgeSnapshot(createdByRead, hint(newer, t("10:00.000"))).outcome).toBe("updated");
  });

  it("arrived before an earlier webhook the mirror holds: still judged by its date (webhooks come in any order)", () => {
    const fromWebhook = { ...createdByRead, lastSource: "webhook" as const };
    expect(
      judgeSnapshot(fromWebhook, hint({ status: "in_progress", dateUpdated: t("06:00.000") }, t("09:00.000")))
        .outcome,
    ).toBe("updated");
  });

  it(`a date more than ${SKEW_MS / 60_000} minutes after its arrival: confirm it; exactly that much is believed`, () => {
    expect(SKEW_MS).toBe(300_000);
    const arrival = t("11:00.000");
    const ahead = new Date(arrival.getTime() + SKEW_MS + 1);
    expect(judgeSnapshot(readBack, hint({ status: "in_progress", dateUpdated: ahead }, arrival))).toEqual({
      outcome: "unconfirmed",
      differences: ["dateUpdated"],
      reason: { why: "dateAhead", at: "2027-05-04T08:16:00.001Z" },
    });
    const atTheLimit = new Date(arrival.getTime() + SKEW_MS);
    expect(
      judgeSnapshot(createdByRead, hint({ status: "in_progress", dateUpdated: atTheLimit }, arrival)).outcome,
    ).toBe("updated");
  });

  it("amounts that differ from the mirror: confirm them, naming the fields", () => {
    expect(
      judgeSnapshot(
        readBack,
        hint({ status: "in_progress", dateUpdated: t("06:00.000"), amount: "10" }, t("11:00.000")),
      ),
    ).toEqual({
      outcome: "unconfirmed",
      differences: ["dateUpdated", "amountInitial", "amountRandomized", "amount"],
      reason: { why: "differsFromMirror", fields: ["amountInitial", "amountRandomized", "amount"] },
    });
  });
});

describe("a hint of status and date only: applied when it is news", () => {
  const created = mirror({
    status: "created",
    dateUpdated: t("05:00.000"),
    lastSource: "webhook",
    receivedAt: t("05:00.000"),
  });
  const judge = (current: MirrorState, status: OperationStatus, dateUpdated: Date | null) =>
    judgeSnapshot(current, hint({ status, dateUpdated }, t("06:00.000"))).outcome;

  it.each([
    // a later status: applied when dated at or after the mirrored one; dated before it (or undated), the
    // platform's read decides (it was stale, and a forged date held back every genuine hint after it)
    ["in_progress", "05:00.001", "updated"],
    ["in_progress", "05:00.000", "updated"],
    ["in_progress", "04:59.999", "unconfirmed"],
    ["in_progress", null, "unconfirmed"],
    // the same status is never news: a later date is not taken on a webhook's word (it was "updated")
    ["created", "05:00.001", "unchanged"],
    ["created", "04:59.999", "stale"],
    // an earlier status is never news, whatever its date
    ["precreated", "05:30.000", "stale"],
  ] as const)("created at 05:00, then %s at %s -> %s", (status, at, outcome) => {
    expect(judge(created, status, at === null ? null : t(at))).toBe(outcome);
  });

  it("a later status dated before the mirror: read back, naming what differs", () => {
    expect(
      judgeSnapshot(created, hint({ status: "in_progress", dateUpdated: t("04:00.000") }, t("06:00.000"))),
    ).toEqual({
      outcome: "unconfirmed",
      differences: ["status", "dateUpdated"],
      reason: { why: "differsFromMirror", fields: ["status", "dateUpdated"] },
    });
  });

  it("booking and pending_retry share a rank: a webhook moving between them is left to the read-backs", () => {
    const booking = mirror({
      status: "booking",
      dateUpdated: t("05:00.000"),
      lastSource: "webhook",
      receivedAt: t("05:00.000"),
    });
    expect(judge(booking, "pending_retry", t("05:00.000"))).toBe("stale");
    expect(judge(booking, "pending_retry", t("05:00.001"))).toBe("stale");
  });

  it("the mirrored time counts at most its arrival plus the allowance", () => {
    // A mirror whose own date claimed to be far ahead of its arrival: it counts as arrival + SKEW_MS.
    const ahead = mirror({
      status: "created",
      dateUpdated: t("30:00.000"),
      lastSource: "webhook",
      receivedAt: t("05:00.000"),
    });
    expect(judge(ahead, "in_progress", t("10:00.000"))).toBe("updated");
    expect(judge(ahead, "in_progress", t("09:59.999"))).toBe("unconfirmed");
    // the same status changes nothing: stale up to the counted time, unchanged after it
    expect(judge(ahead, "created", t("10:00.000"))).toBe("stale");
    expect(judge(ahead, "created", t("10:00.001"))).toBe("unchanged");
  });
});

describe("a read sent before a webhook that the mirror applied meanwhile", () => {
  // Chaos-test finding: the final webhook was read back, and while that read was on its way a late,
  // reordered in-progress hint was applied; the read's answer was then judged stale, and the mirror
  // stayed in progress for an operation the platform had failed.
  const hinted = mirror({
    status: "in_progress",
    dateUpdated: t("06:02.446"),
    lastSource: "webhook",
    receivedAt: t("06:02.803"),
  });
  const read = (status: OperationStatus, dateUpdated: Date) =>
    judgeSnapshot(hinted, incomingSnapshot(operation({ status, dateUpdated }), "readBack", t("06:02.700")))
      .outcome;

  it("showing a later status (a final one): the read is applied", () => {
    expect(read("failed", t("06:02.527"))).toBe("updated");
    expect(read("success", t("06:02.527"))).toBe("updated");
  });

  it("showing the same or an earlier status: still stale, the hint is the newer news", () => {
    expect(read("in_progress", t("06:02.300"))).toBe("stale");
    expect(read("created", t("06:02.100"))).toBe("stale");
  });

  it("against a mirror a read left, a read sent earlier stays stale whatever it shows", () => {
    const fromRead = { ...hinted, lastSource: "readBack" as const };
    const outcome = judgeSnapshot(
      fromRead,
      incomingSnapshot(
        operation({ status: "failed", dateUpdated: t("06:02.527") }),
        "readBack",
        t("06:02.700"),
      ),
    ).outcome;
    expect(outcome).toBe("stale");
  });
});
