// Audit log: filters, keyset paging, CSV export (streamed, itself audited), and append-only through
// Prisma (the database refuses UPDATE and DELETE, whatever the code does).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { audit } from "@/lib/audit/log";
import { listAudit, parseAuditFilter } from "@/lib/audit/queries";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.50" }),
}));

const { setLanguage, setTimeZone } = await import("@/lib/actions/preferences");
const { disableUserAction } = await import("@/lib/actions/users");

const db = getDb();
const tag = randomUUID();
let admin: { id: string; email: string };

beforeAll(async () => {
  admin = await createStaff("admin");
  session.current = { userId: admin.id, sessionVersion: 0 };
  const actor = { id: admin.id, email: admin.email, ip: "203.0.113.5" };
  for (let i = 0; i < 60; i++) {
    await db.$transaction((tx) =>
      audit(tx, actor, {
        action: i % 2 ? "test.even" : "test.odd",
        targetType: "thing",
        targetId: `${tag}-${i}`,
        before: { n: i },
        after: { n: i + 1, text: '=cmd|"/c calc"!A1, with "quotes"' },
      }),
    );
  }
});

const filter = (params: Record<string, string>) => {
  const parsed = parseAuditFilter(new URLSearchParams(params));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.filter;
};

describe("audit log queries", () => {
  it("filters by actor and action, pages newest first by id", async () => {
    const first = await listAudit(filter({ actor: admin.email }));
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.targetId).toBe(`${tag}-59`);
    const ids = first.rows.map((r) => BigInt(r.id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
    const second = await listAudit(filter({ actor: admin.email, before: first.nextBefore! }));
    expect(second.rows).toHaveLength(10);
    expect(second.nextBefore).toBeNull();

    const odd = await listAudit(filter({ actor: admin.email, action: "test.odd" }));
    expect(odd.rows).toHaveLength(30);
    expect(odd.rows.every((r) => r.action === "test.odd")).toBe(true);
    expect(odd.rows[0]).toMatchObject({ ip: "203.0.113.5", actorEmail: admin.email, before: { n: 58 } });

    const one = await listAudit(filter({ target: `${tag}-7` }));
    expect(one.rows.map((r) => r.targetId)).toEqual([`${tag}-7`]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAudit(filter({ actor: admin.email, from: today, to: today }))).rows).toHaveLength(50);
    expect((await listAudit(filter({ actor: admin.email, to: "2000-01-01" }))).rows).toHaveLength(0);
  });

  it.each([
    ["a date that is not a date", { from: "2024-13-01" }, "from"],
    ["an impossible date", { to: "2024-02-30" }, "to"],
    ["to before from", { from: "2024-05-02", to: "2024-05-01" }, "to"],
    ["a cursor that is not a number", { before: "abc" }, "before"],
    ["a cursor with an exponent", { before: "1e3" }, "before"],
    ["a 1 MB actor", { actor: "x".repeat(1_048_576) }, "actor"],
  ])("refuses %s with a message", (_name, params, field) => {
    const parsed = parseAuditFilter(new URLSearchParams(params));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.fieldErrors[field]?.[0]).toMatch(/\w/);
  });
});

describe("filters mean what they say", () => {
  const like = randomUUID().slice(0, 8);
  // 2025-03-09 22:30 UTC is 2025-03-10 01:30 in Moscow; 2025-03-10 22:30 UTC is already the 11th there.
  const moscowTenth = `tz-${like}-moscow-10th`;
  const utcTenth = `tz-${like}-utc-10th`;
  let moscowAdmin: { id: string };

  beforeAll(async () => {
    await db.auditLog.createMany({
      data: [
        { actorEmail: `a_b%-${like}@x.test`, action: `like_${like}.one` },
        { actorEmail: `axbz-${like}@x.test`, action: `likeX${like}.two` },
        { actorEmail: `c\\d-${like}@x.test`, action: `like.${like}.three` },
        {
          actorEmail: `tz-${like}@x.test`,
          action: "test.tz",
          targetId: moscowTenth,
          at: new Date("2025-03-09T22:30:00Z"),
        },
        {
          actorEmail: `tz-${like}@x.test`,
          action: "test.tz",
          targetId: utcTenth,
          at: new Date("2025-03-10T22:30:00Z"),
        },
      ],
    });
    moscowAdmin = await createStaff("admin");
    await db.user.update({ where: { id: moscowAdmin.id }, data: { timeZone: "Europe/Moscow" } });
  });

  const actors = async (params: Record<string, string>) =>
    (await listAudit(filter(params))).rows.map((r) => r.actorEmail);

  // Prisma's contains/startsWith are LIKE patterns: % and _ were wildcards, a backslash an escape.
  it("takes %, _ and \\ in actor and action as themselves", async () => {
    expect(await actors({ actor: `a_b%-${like}` })).toEqual([`a_b%-${like}@x.test`]);
    expect(await actors({ actor: `%-${like}` })).toEqual([`a_b%-${like}@x.test`]);
    expect(await actors({ actor: `c\\d-${like}` })).toEqual([`c\\d-${like}@x.test`]);
    expect(await actors({ action: `like_${like}` })).toEqual([`a_b%-${like}@x.test`]);
  });

  const targets = (rows: { targetId: string | null }[]) => rows.map((r) => r.targetId);
  const tenth = { actor: `tz-${like}`, from: "2025-03-10", to: "2025-03-10" };

  // The page shows times in the admin's zone; its date filter took UTC days.
  it("reads from/to as days of the given zone", async () => {
    const inZone = (zone: string) => {
      const parsed = parseAuditFilter(new URLSearchParams(tenth), "en", zone);
      if (!parsed.ok) throw new Error(parsed.message);
      return listAudit(parsed.filter);
    };
    expect(targets((await inZone("Europe/Moscow")).rows)).toEqual([moscowTenth]);
    expect(targets((await inZone("UTC")).rows)).toEqual([utcTenth]);
  });

  it("the page and the export read them in the admin's zone, the one the page shows times in", async () => {
    session.current = { userId: moscowAdmin.id, sessionVersion: 0 };
    try {
      const { default: Page } = await import("@/app/(console)/admin/audit/page");
      const text = pageText(await Page({ searchParams: Promise.resolve(tenth) })).join("\n");
      expect(text).toContain(moscowTenth);
      expect(text).not.toContain(utcTenth);
      const { GET } = await import("@/app/api/exports/audit/route");
      const csv = await (
        await GET(new Request(`http://test/api/exports/audit?${new URLSearchParams(tenth)}`))
      ).text();
      expect(csv).toContain(moscowTenth);
      expect(csv).not.toContain(utcTenth);
    } finally {
      session.current = { userId: admin.id, sessionVersion: 0 };
    }
  });
});

describe("CSV export", () => {
  it("streams every matching entry (formula cells neutralised) and records the export", async () => {
    const { GET } = await import("@/app/api/exports/audit/route");
    const response = await GET(
      new Request(`http://test/api/exports/audit?actor=${encodeURIComponent(admin.email)}&action=test.`),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/csv/);
    const text = await response.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,at,actorEmail,ip,action,targetType,targetId,before,after");
    expect(lines).toHaveLength(61);
    expect(text).toContain(`${tag}-0`);
    expect(text).not.toMatch(/,=cmd/);
    const exported = await db.auditLog.findFirstOrThrow({
      where: { action: "audit.export", actorUserId: admin.id },
      orderBy: { id: "desc" },
    });
    expect(exported.ip).toBe("198.51.100.50");
  });

  it("answers 400 with field errors for bad filters", async () => {
    const { GET } = await import("@/app/api/exports/audit/route");
    const response = await GET(new Request("http://test/api/exports/audit?from=yesterday"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { from: [expect.any(String)] },
    });
  });
});

describe("append-only, enforced by the database", () => {
  it("refuses UPDATE and DELETE through Prisma", async () => {
    const entry = await db.auditLog.findFirstOrThrow({ where: { targetId: `${tag}-1` } });
    await expect(
      db.auditLog.update({ where: { id: entry.id }, data: { action: "tampered" } }),
    ).rejects.toThrow();
    await expect(
      db.auditLog.updateMany({ where: { targetId: `${tag}-1` }, data: { ip: null } }),
    ).rejects.toThrow();
    await expect(db.auditLog.delete({ where: { id: entry.id } })).rejects.toThrow();
    await expect(db.auditLog.deleteMany({ where: { targetId: `${tag}-1` } })).rejects.toThrow();
    await expect(db.$executeRaw`UPDATE "AuditLog" SET action = 'x' WHERE id = ${entry.id}`).rejects.toThrow();
    expect(await db.auditLog.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });
});

// Audit of the audit log as read by staff: preferences were written with targetType "User", every other
// change to a user with "user", so target=user left out language and time-zone changes.
describe("the target filter and entries about users", () => {
  it("target=user finds every change to a user, whatever the case the type was stored in", async () => {
    const me = await createStaff("support");
    const other = await createStaff("finance");
    session.current = { userId: me.id, sessionVersion: 0 };
    try {
      expect(await setLanguage({ locale: "ru" })).toMatchObject({ ok: true });
      expect(await setTimeZone({ timeZone: "Asia/Almaty" })).toMatchObject({ ok: true });
    } finally {
      session.current = { userId: admin.id, sessionVersion: 0 };
    }
    // an entry stored before the fix, as "User"
    await db.auditLog.create({
      data: {
        actorUserId: me.id,
        actorEmail: me.email,
        action: "user.language.change",
        targetType: "User",
        targetId: me.id,
      },
    });
    expect(await disableUserAction({ userId: other.id })).toEqual({ ok: true });

    const mine = await listAudit(filter({ actor: me.email, target: "user" }));
    expect(mine.rows.map((r) => `${r.action} (${r.targetType})`)).toEqual([
      "user.language.change (User)",
      "user.timeZone.change (user)",
      "user.language.change (user)",
    ]);
    expect((await listAudit(filter({ actor: me.email, target: "USER" }))).rows).toHaveLength(3);
    // the type is matched as itself, not as a pattern
    expect((await listAudit(filter({ actor: me.email, target: "us_r" }))).rows).toHaveLength(0);
    expect((await listAudit(filter({ actor: me.email, target: "%" }))).rows).toHaveLength(0);
    const snake = `snake_${tag}`;
    await db.auditLog.create({ data: { actorEmail: me.email, action: "test.snake", targetType: snake } });
    expect((await listAudit(filter({ target: snake.toUpperCase() }))).rows).toHaveLength(1);
    expect((await listAudit(filter({ target: snake.replace("_", "x") }))).rows).toHaveLength(0);
    expect((await listAudit(filter({ action: "user.disable", target: "user" }))).rows[0]).toMatchObject({
      targetId: other.id,
    });
  });

  // Audit of the audit log: an entry about a user showed `user <uuid>`, an id shown nowhere else.
  it("lists an entry about a user with the user's email, whatever the case of its type", async () => {
    const other = await createStaff("approver");
    expect(await disableUserAction({ userId: other.id })).toEqual({ ok: true });
    await db.auditLog.create({
      data: { actorEmail: admin.email, action: "test.legacyUser", targetType: "User", targetId: other.id },
    });
    const rows = (await listAudit(filter({ target: other.id }))).rows;
    expect(rows.map((r) => [r.action, r.targetEmail])).toEqual([
      ["test.legacyUser", other.email],
      ["user.disable", other.email],
    ]);
    // not a user: no email; a user id that is no user's: none either
    expect((await listAudit(filter({ target: `${tag}-3` }))).rows[0]).toMatchObject({ targetEmail: null });
    const ghost = randomUUID();
    await db.auditLog.create({
      data: { actorEmail: admin.email, action: "test.ghost", targetType: "user", targetId: ghost },
    });
    expect((await listAudit(filter({ target: ghost }))).rows).toMatchObject([{ targetEmail: null }]);

    const { default: Page } = await import("@/app/(console)/admin/audit/page");
    const text = pageText(
      await Page({ searchParams: Promise.resolve({ action: "user.disable", target: other.id }) }),
    ).join(" ");
    expect(text).toContain("user.disable");
    expect(text).toContain(other.email);
  });

  it("the target filter takes a user's email (any case) and finds the entries about them", async () => {
    const other = await createStaff("support");
    expect(await disableUserAction({ userId: other.id })).toEqual({ ok: true });
    const byEmail = await listAudit(filter({ target: other.email.toUpperCase() }));
    expect(byEmail.rows.map((r) => [r.action, r.targetId, r.targetEmail])).toEqual([
      ["user.disable", other.id, other.email],
    ]);
    expect((await listAudit(filter({ target: `nobody-${tag}@test.local` }))).rows).toEqual([]);

    const { default: Page } = await import("@/app/(console)/admin/audit/page");
    const text = pageText(await Page({ searchParams: Promise.resolve({ target: other.email }) })).join(" ");
    expect(text).toContain("user.disable");
    const { GET } = await import("@/app/api/exports/audit/route");
    const csv = await (
      await GET(new Request(`http://test/api/exports/audit?target=${encodeURIComponent(other.email)}`))
    ).text();
    expect(csv).toContain(`user.disable,user,${other.id}`);
  });
});

// Audit of the audit log: a refused control or invisible character was explained in English whatever
// the language (the operations and trace filters word it from the catalogs).
describe("a control or invisible character in a filter", () => {
  it.each([
    [
      "en",
      "Check the filters.",
      "Remove control or invisible formatting characters (such as NUL or a text-direction override).",
    ],
    [
      "ru",
      "Проверьте фильтры.",
      "Уберите управляющие или невидимые символы форматирования (например, NUL или смену направления текста).",
    ],
  ] as const)("is explained in %s", (locale, message, invisible) => {
    const parsed = parseAuditFilter(
      new URLSearchParams({ actor: "adm\u0000in", action: "user\u202e", target: "\u200buser" }),
      locale,
    );
    expect(parsed).toEqual({
      ok: false,
      message,
      fieldErrors: { actor: [invisible], action: [invisible], target: [invisible] },
    });
  });
});
