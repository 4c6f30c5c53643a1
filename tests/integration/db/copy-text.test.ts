// COPY's text format written by copyText (lib/db-copy-text.ts) and read by PostgreSQL: any text and any
// JSON comes back exactly as it was written (property test), through withPoolTransaction's copyFrom.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, withPoolTransaction } from "@/lib/db";
import { copyText } from "@/lib/db-copy-text";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  await getDb().$executeRawUnsafe(`CREATE TABLE copy_text_probe (n int PRIMARY KEY, t text, j jsonb)`);
});
afterAll(() => restore());

type Row = { n: number; t: string | null; j: unknown };

// Any Unicode text but NUL (PostgreSQL text cannot hold it; copyText refuses it), with the characters
// COPY's format gives a meaning to, and bidi controls, made likely.
const text = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom("\\", "\t", "\n", "\r", "\\N", "\\.", "\u202E", "\u2066", '"', "ё"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    ),
    maxLength: 30,
  })
  .filter((s) => !s.includes("\u0000"));
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe("copyText read by PostgreSQL's COPY", () => {
  it("gives back every text and JSON value exactly", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ t: fc.option(text), j: fc.option(json) }), { minLength: 1, maxLength: 20 }),
        async (values) => {
          const rows: Row[] = values.map((v, n) => ({ n, t: v.t, j: v.j }));
          const back = await withPoolTransaction(
            async (tx) => {
              await tx.copyFrom(
                `COPY copy_text_probe (n, t, j) FROM STDIN`,
                copyText(rows, ["n", "t", "j"], new Set(["j"])),
              );
              const read = await tx.query<Row>(`SELECT n, t, j FROM copy_text_probe ORDER BY n`);
              await tx.query(`DELETE FROM copy_text_probe`);
              return read.rows;
            },
            { statementTimeoutMs: 5_000 },
          );
          expect(back).toEqual(rows.map((r) => ({ ...r, j: r.j ?? null })));
        },
      ),
      { numRuns: 150 },
    );
  });
});
