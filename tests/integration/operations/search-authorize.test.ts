// authorizeSearch (lib/operations/list/search-policy.ts) with its audit entries written out: text that is
// no digit search passes uncounted, exactly the shown 4 digits pass unaudited, more digits are audited
// masked with their length and where the search ran, and a refused search is neither counted nor audited.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { authorizeSearch } from "@/lib/operations/list/search-policy";
import { createStaff } from "../../support/mirror";

async function staff(role: "support" | "finance") {
  const u = await createStaff(role);
  return { id: u.id, email: u.email, role, ip: "198.51.100.7" };
}
const auditsBy = (userId: string) =>
  getDb().auditLog.findMany({
    where: { actorUserId: userId },
    orderBy: { id: "asc" },
    select: { action: true, actorEmail: true, ip: true, targetType: true, targetId: true, after: true },
  });

describe("authorizeSearch", () => {
  it("text that reaches no numbers: allowed, not a digit search, nothing audited", async () => {
    const me = await staff("support");
    expect(await authorizeSearch(me, "order-42", "list")).toEqual({ ok: true, digitSearch: false });
    expect(await authorizeSearch(me, undefined, "list")).toEqual({ ok: true, digitSearch: false });
    expect(await auditsBy(me.id)).toEqual([]);
  });

  it("exactly the 4 shown digits: a digit search, not audited", async () => {
    const me = await staff("support");
    expect(await authorizeSearch(me, "1234", "api")).toEqual({ ok: true, digitSearch: true });
    expect(await auditsBy(me.id)).toEqual([]);
  });

  it("more digits with the permission: audited masked, with the length and the entry point", async () => {
    const me = await staff("finance");
    expect(await authorizeSearch(me, "12345", "export")).toEqual({ ok: true, digitSearch: true });
    expect(await auditsBy(me.id)).toEqual([
      {
        action: "operations.search_digits",
        actorEmail: me.email,
        ip: "198.51.100.7",
        targetType: "operations",
        targetId: null,
        after: { searched: "*2345", digits: 5, via: "export" },
      },
    ]);
  });

  it("more digits without the permission: refused, nothing audited", async () => {
    const me = await staff("support");
    expect(await authorizeSearch(me, "12345", "list")).toEqual({ ok: false, code: "search_not_allowed" });
    expect(await auditsBy(me.id)).toEqual([]);
  });
});
