// withPoolTransaction (lib/db.ts): the plain-pg transaction the reconciliation's page writes use. It
// commits what the callback wrote, writes nothing when the callback fails or a statement outlives the
// timeout, and always gives its connection back to the pool; its COPY (copyFrom) is part of the
// transaction like any statement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, withPoolTransaction } from "@/lib/db";
import { getDatabasePoolSize } from "@/lib/env";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
const rows = async () =>
  (await getDb().$queryRawUnsafe<{ v: number }[]>(`SELECT v FROM pool_tx_probe ORDER BY v`)).map((r) => r.v);

beforeAll(async () => {
  restore = await isolateDatabase();
  await getDb().$executeRawUnsafe(`CREATE TABLE pool_tx_probe (v int PRIMARY KEY)`);
});
afterAll(() => restore());

describe("withPoolTransaction", () => {
  it("commits every statement of the callback and returns its result", async () => {
    const result = await withPoolTransaction(
      async (tx) => {
        await tx.query(`INSERT INTO pool_tx_probe VALUES (1)`);
        await tx.query(`INSERT INTO pool_tx_probe VALUES ($1)`, [2]);
        return "done";
      },
      { statementTimeoutMs: 5_000 },
    );
    expect(result).toBe("done");
    expect(await rows()).toEqual([1, 2]);
  });

  it("opens the transaction before a first statement with parameters, and returns a multi-statement query's own results", async () => {
    const results = await withPoolTransaction(
      async (tx) => {
        await tx.query(`INSERT INTO pool_tx_probe VALUES ($1)`, [10]);
        return tx.query(`SELECT 1 AS a; SELECT 2 AS b`);
      },
      { statementTimeoutMs: 5_000 },
    );
    expect((results as unknown as { rows: unknown[] }[]).map((r) => r.rows)).toEqual([
      [{ a: 1 }],
      [{ b: 2 }],
    ]);
    expect(await rows()).toEqual([1, 2, 10]);
    await getDb().$executeRawUnsafe(`DELETE FROM pool_tx_probe WHERE v = 10`);
  });

  it("runs a statement given to atCommit in the transaction, and rolls everything back if it fails", async () => {
    await withPoolTransaction(async (tx) => tx.atCommit(`INSERT INTO pool_tx_probe VALUES (20)`), {
      statementTimeoutMs: 5_000,
    });
    expect(await rows()).toEqual([1, 2, 20]);
    const error = await withPoolTransaction(
      async (tx) => {
        await tx.query(`INSERT INTO pool_tx_probe VALUES (21)`);
        tx.atCommit(`INSERT INTO pool_tx_probe VALUES (20)`); // a duplicate key
      },
      { statementTimeoutMs: 5_000 },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect(await rows()).toEqual([1, 2, 20]);
    await getDb().$executeRawUnsafe(`DELETE FROM pool_tx_probe WHERE v = 20`);
  });

  it("writes nothing when the callback throws after a statement succeeded", async () => {
    await expect(
      withPoolTransaction(
        async (tx) => {
          await tx.query(`INSERT INTO pool_tx_probe VALUES (3)`);
          throw new Error("judged wrong");
        },
        { statementTimeoutMs: 5_000 },
      ),
    ).rejects.toThrow("judged wrong");
    expect(await rows()).toEqual([1, 2]);
  });

  it("ends a statement that outlives the timeout, with PostgreSQL's query_canceled, and writes nothing", async () => {
    const error = await withPoolTransaction(
      async (tx) => {
        await tx.query(`INSERT INTO pool_tx_probe VALUES (4)`);
        await tx.query(`SELECT pg_sleep(2)`);
      },
      { statementTimeoutMs: 100 },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "57014" });
    expect(await rows()).toEqual([1, 2]);
  });

  it("the timeout is the transaction's own: the next use of the connection has none", async () => {
    const timeouts = await Promise.all(
      Array.from({ length: getDatabasePoolSize() }, () =>
        withPoolTransaction(
          async (tx) => (await tx.query<{ statement_timeout: string }>(`SHOW statement_timeout`)).rows[0]!,
          {
            statementTimeoutMs: 1_234,
          },
        ),
      ),
    );
    expect(new Set(timeouts.map((r) => r.statement_timeout))).toEqual(new Set(["1234ms"]));
    const after = await getDb().$queryRawUnsafe<{ statement_timeout: string }[]>(`SHOW statement_timeout`);
    expect(after[0]?.statement_timeout).toBe("0");
  });

  it("commits without waiting for the disk only when asked, and only that transaction", async () => {
    const inside = await withPoolTransaction(
      async (tx) => (await tx.query(`SHOW synchronous_commit`)).rows[0],
      {
        statementTimeoutMs: 5_000,
        synchronousCommit: false,
      },
    );
    expect(inside?.synchronous_commit).toBe("off");
    const usual = await withPoolTransaction(
      async (tx) => (await tx.query(`SHOW synchronous_commit`)).rows[0],
      {
        statementTimeoutMs: 5_000,
      },
    );
    expect(usual?.synchronous_commit).toBe("on");
  });

  it("settings hold for the transaction only, and a name that is not a custom setting's is refused before anything is sent", async () => {
    const read = `SELECT current_setting('paydesk.probe', true) AS v`;
    const inside = await withPoolTransaction(async (tx) => (await tx.query<{ v: string }>(read)).rows[0]!.v, {
      statementTimeoutMs: 5_000,
      settings: { "paydesk.probe": "it's set" },
    });
    expect(inside).toBe("it's set");
    const after = await Promise.all(
      Array.from({ length: getDatabasePoolSize() }, () =>
        withPoolTransaction(async (tx) => (await tx.query<{ v: string | null }>(read)).rows[0]!.v, {
          statementTimeoutMs: 5_000,
        }),
      ),
    );
    expect(after.every((v) => v === null || v === "")).toBe(true);
    for (const name of ["statement_timeout", "paydesk.probe; DROP TABLE pool_tx_probe", 'a."b"'])
      await expect(
        withPoolTransaction(async () => "ran", { statementTimeoutMs: 5_000, settings: { [name]: "x" } }),
      ).rejects.toThrow(/not a custom setting's name/);
    expect(await rows()).toEqual([1, 2]);
  });

  it("copyFrom: a COPY opens the transaction like a statement and commits with it", async () => {
    const timeout = await withPoolTransaction(
      async (tx) => {
        await tx.copyFrom(`COPY pool_tx_probe (v) FROM STDIN`, "30\n31\n");
        return (await tx.query<{ statement_timeout: string }>(`SHOW statement_timeout`)).rows[0]!;
      },
      { statementTimeoutMs: 4_321 },
    );
    expect(timeout.statement_timeout).toBe("4321ms");
    expect(await rows()).toEqual([1, 2, 30, 31]);
    await getDb().$executeRawUnsafe(`DELETE FROM pool_tx_probe WHERE v IN (30, 31)`);
  });

  it("copyFrom: a COPY that fails undoes the whole transaction, and the connection is given back usable", async () => {
    for (let i = 0; i < getDatabasePoolSize() + 3; i++) {
      const error = await withPoolTransaction(
        async (tx) => {
          await tx.query(`INSERT INTO pool_tx_probe VALUES (40)`);
          await tx.copyFrom(`COPY pool_tx_probe (v) FROM STDIN`, "41\n2\n"); // 2: a duplicate key
        },
        { statementTimeoutMs: 5_000 },
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "23505" });
    }
    const malformed = await withPoolTransaction(
      (tx) => tx.copyFrom(`COPY pool_tx_probe (v) FROM STDIN`, "42\nnot a number\n"),
      { statementTimeoutMs: 5_000 },
    ).catch((e: unknown) => e);
    expect(malformed).toMatchObject({ code: "22P02" });
    await expect(
      withPoolTransaction(
        async (tx) => {
          await tx.copyFrom(`COPY pool_tx_probe (v) FROM STDIN`, "44\n"); // the transaction's first statement
          throw new Error("judged wrong");
        },
        { statementTimeoutMs: 5_000 },
      ),
    ).rejects.toThrow("judged wrong");
    expect(await rows()).toEqual([1, 2]);
    await withPoolTransaction((tx) => tx.copyFrom(`COPY pool_tx_probe (v) FROM STDIN`, "43\n"), {
      statementTimeoutMs: 5_000,
    });
    expect(await rows()).toEqual([1, 2, 43]);
    await getDb().$executeRawUnsafe(`DELETE FROM pool_tx_probe WHERE v = 43`);
  });

  it("gives the connection back after failures: more failed transactions than the pool has connections, then one that works", async () => {
    for (let i = 0; i < getDatabasePoolSize() + 3; i++) {
      await expect(
        withPoolTransaction(async (tx) => tx.query(`INSERT INTO pool_tx_probe VALUES (1)`), {
          statementTimeoutMs: 5_000,
        }),
      ).rejects.toMatchObject({ code: "23505" });
    }
    await withPoolTransaction(async (tx) => tx.query(`INSERT INTO pool_tx_probe VALUES (5)`), {
      statementTimeoutMs: 5_000,
    });
    expect(await rows()).toEqual([1, 2, 5]);
  });
});
