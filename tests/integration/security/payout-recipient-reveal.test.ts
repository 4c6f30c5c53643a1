// Finding 13: pay-out pages showed the full recipient number to every role with recipients.reveal and
// wrote no audit entry. Now the pages carry the masked number only, and the full one comes from an
// audited reveal action, as on the operation page.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, test, vi } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { listPayouts, getPayoutDetail } from "@/lib/payouts/queries";
import { createStaff } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// Actions read the request's language (Accept-Language): no request here, no header.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const db = getDb();
const FULL = "2200700012345675";
const MASKED = "************5675";
const staff = {} as Record<Role, { id: string; email: string }>;
let payoutId: string;

beforeAll(async () => {
  for (const role of ["admin", "finance", "approver", "support"] as const)
    staff[role] = await createStaff(role);
  const created = await storedPayoutRequest(staff.finance.id, {
    status: "awaiting_approval",
    recipientNumber: FULL,
    amount: "1234.5",
  });
  payoutId = created.id;
});

function signInAs(role: Role) {
  session.current = { userId: staff[role].id, sessionVersion: 0 };
}

/** Everything a value holds as JSON text (React elements included; cycles and functions dropped). */
function serialise(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "object" && v !== null) {
      if (seen.has(v)) return undefined;
      seen.add(v);
    }
    return v;
  });
}

const revealAuditRows = (userId: string) =>
  db.auditLog.findMany({ where: { actorUserId: userId, action: "recipient.reveal" } });

describe("pay-out pages carry the masked recipient number only", () => {
  test.each(["admin", "finance", "approver"] as const)(
    "%s: list and detail view models and the rendered pages hold no full number",
    async (role) => {
      const list = await listPayouts();
      const detail = await getPayoutDetail(payoutId, { id: staff[role].id, role });
      expect(list.find((r) => r.id === payoutId)?.recipientMasked).toBe(MASKED);
      expect(detail?.recipientMasked).toBe(MASKED);
      expect(serialise(list)).not.toContain(FULL);
      expect(serialise(detail)).not.toContain(FULL);

      signInAs(role);
      const { default: ListPage } = await import("@/app/(console)/payouts/page");
      const { default: DetailPage } = await import("@/app/(console)/payouts/[id]/page");
      const listPage = serialise(await ListPage({ searchParams: Promise.resolve({}) }));
      const detailPage = serialise(await DetailPage({ params: Promise.resolve({ id: payoutId }) }));
      expect(detailPage).toContain(MASKED);
      expect(listPage).not.toContain(FULL);
      expect(detailPage).not.toContain(FULL);
      // looking is not revealing: nothing audited
      expect(await revealAuditRows(staff[role].id)).toHaveLength(0);
    },
  );
});

describe("revealing a pay-out's recipient number", () => {
  const action = async () =>
    (await import("@/lib/actions/payout-recipients")).revealPayoutRecipientNumberAction;

  it("refuses support (no recipients.reveal) and writes no audit row", async () => {
    signInAs("support");
    const result = await (await action())({ id: payoutId });
    expect(result).toMatchObject({ ok: false, code: "forbidden" });
    expect(serialise(result)).not.toContain(FULL);
    expect(await db.auditLog.count({ where: { actorUserId: staff.support.id } })).toBe(0);
  });

  it("returns the number to an approver and writes exactly one audit row naming the request", async () => {
    signInAs("approver");
    expect(await (await action())({ id: payoutId.toUpperCase() })).toEqual({ ok: true, number: FULL });
    const rows = await revealAuditRows(staff.approver.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorEmail: staff.approver.email,
      targetType: "payoutRequest",
      targetId: payoutId,
    });
  });

  test.each([
    ["not an id", { id: "../etc" }, "invalid"],
    ["no input", undefined, "invalid"],
    ["an unknown request", { id: randomUUID() }, "not_found"],
  ])("%s: refused, nothing audited", async (_name, input, code) => {
    signInAs("admin");
    expect(await (await action())(input)).toMatchObject({ ok: false, code });
    expect(await revealAuditRows(staff.admin.id)).toHaveLength(0);
  });
});
