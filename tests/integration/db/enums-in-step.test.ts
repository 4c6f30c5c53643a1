// Lists that exist twice and must stay in step: the database's enums (as migrated), the Prisma client's
// generated enums, and the code's own lists (the role list of the permission matrix, the wire schema's
// operation statuses and types, the pay-out request statuses). A value added on one side only fails here.
import { describe, expect, inject, it } from "vitest";
import { roles } from "@/lib/auth/permissions";
import * as prismaEnums from "@/lib/generated/prisma/enums";
import { statusRank } from "@/lib/operations/status";
import { PAYOUT_STATUSES } from "@/lib/payouts/state";
import { OPERATION_STATUSES, OPERATION_TYPES } from "@/lib/platform/schemas";
import { withClient } from "../../support/database";

async function databaseEnum(name: string): Promise<string[]> {
  return withClient(inject("databaseUrl"), async (client) => {
    const { rows } = await client.query<{ label: string }>(
      `SELECT e.enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
        WHERE t.typname = $1 ORDER BY e.enumsortorder`,
      [name],
    );
    return rows.map((r) => r.label);
  });
}

const sorted = (values: Iterable<string>) => [...values].sort();

describe.each([
  ["Role", () => roles, ["admin", "approver", "finance", "support"]],
  [
    "OperationStatus",
    () => OPERATION_STATUSES,
    ["booking", "created", "failed", "in_progress", "pending_retry", "precreated", "success"],
  ],
  ["OperationType", () => OPERATION_TYPES, ["payIn", "payOut"]],
  [
    "PayoutRequestStatus",
    () => PAYOUT_STATUSES,
    [
      "approved",
      "awaiting_approval",
      "cancelled",
      "draft",
      "failed_to_submit",
      "rejected",
      "submitted",
      "submitting",
    ],
  ],
] as const)("enum %s", (name, codeList, expected) => {
  it("the database's values are the code's list", async () => {
    const fromDatabase = await databaseEnum(name);
    expect(fromDatabase.length).toBeGreaterThan(0);
    expect(sorted(fromDatabase)).toEqual(sorted(codeList()));
  });

  it("the Prisma client's generated values are the code's list", () => {
    const generated = (prismaEnums as unknown as Record<string, Record<string, string>>)[name]!;
    expect(sorted(Object.values(generated))).toEqual(sorted(codeList()));
  });

  it("and both are the list written here", () => {
    expect(sorted(codeList())).toEqual([...expected]);
  });
});

describe("every database operation status has a place in the lifecycle", () => {
  it("statusRank knows each status the database can hold", async () => {
    for (const status of await databaseEnum("OperationStatus")) {
      expect(statusRank(status as prismaEnums.OperationStatus), status).toEqual(expect.any(Number));
    }
  });
});
