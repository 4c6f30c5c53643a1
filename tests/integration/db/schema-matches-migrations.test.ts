import { readFile } from "node:fs/promises";
import { inject, describe, expect, it } from "vitest";
import { diffShapes, expectedShape, readDatabaseShape } from "../../support/schema-diff";
import { withClient } from "../../support/database";

const schemaPath = new URL("../../../prisma/schema.prisma", import.meta.url);

describe("prisma/migrations and schema.prisma", () => {
  it("the migrated database has exactly the models, columns, types, nullability, uniques, indexes and keys of schema.prisma", async () => {
    const schema = await readFile(schemaPath, "utf8");
    const actual = await withClient(inject("databaseUrl"), readDatabaseShape);
    const expected = expectedShape(schema);
    expect(expected.columns.size).toBeGreaterThan(100);
    expect(diffShapes(expected, actual)).toEqual([]);
  });

  it("reports a column added to schema.prisma without a migration", async () => {
    const schema = await readFile(schemaPath, "utf8");
    const changed = schema.replace("model Bank {\n", "model Bank {\n  country String?\n");
    const actual = await withClient(inject("databaseUrl"), readDatabaseShape);
    expect(diffShapes(expectedShape(changed), actual)).toEqual([
      "- missing in database (columns): Bank.country text NULL",
    ]);
  });

  it("reports an index whose method or operator class differs", async () => {
    const schema = await readFile(schemaPath, "utf8");
    const changed = schema.replace(
      '@@index([detailsNumber(ops: raw("gin_trgm_ops"))], type: Gin, map: "Operation_detailsNumber_trgm_idx")',
      '@@index([detailsNumber], map: "Operation_detailsNumber_trgm_idx")',
    );
    const actual = await withClient(inject("databaseUrl"), readDatabaseShape);
    expect(diffShapes(expectedShape(changed), actual)).toEqual([
      "+ not in schema.prisma (indexes): Operation INDEX Operation_detailsNumber_trgm_idx gin (detailsNumber gin_trgm_ops)",
      "- missing in database (indexes): Operation INDEX Operation_detailsNumber_trgm_idx btree (detailsNumber)",
    ]);
  });

  it("reports a partial index whose condition differs", async () => {
    const schema = await readFile(schemaPath, "utf8");
    const changed = schema.replace(`where: raw("outcome = 'received'")`, `where: raw("outcome = 'failed'")`);
    const actual = await withClient(inject("databaseUrl"), readDatabaseShape);
    expect(diffShapes(expectedShape(changed), actual)).toEqual([
      "+ not in schema.prisma (indexes): WebhookDelivery INDEX WebhookDelivery_waiting_idx btree (id) WHERE outcome = 'received'",
      "- missing in database (indexes): WebhookDelivery INDEX WebhookDelivery_waiting_idx btree (id) WHERE outcome = 'failed'",
    ]);
  });

  it("reports a changed type, nullability and a dropped index", async () => {
    const schema = await readFile(schemaPath, "utf8");
    const changed = schema
      .replace(
        "amountInitial                    Decimal         @db.Decimal(24, 4)",
        "amountInitial Decimal @db.Decimal(20, 2)",
      )
      .replace(
        "  lastSignInAt   DateTime? @db.Timestamptz(3)",
        "  lastSignInAt   DateTime @db.Timestamptz(3)",
      )
      .replace("  @@index([idTransactionMerchant])\n", "");
    const diff = diffShapes(
      expectedShape(changed),
      await withClient(inject("databaseUrl"), readDatabaseShape),
    );
    expect(diff).toEqual(
      expect.arrayContaining([
        "- missing in database (columns): Operation.amountInitial numeric(20,2) NOT NULL",
        "+ not in schema.prisma (columns): Operation.amountInitial numeric(24,4) NOT NULL",
        "- missing in database (columns): User.lastSignInAt timestamptz(3) NOT NULL",
        "+ not in schema.prisma (indexes): Operation INDEX Operation_idTransactionMerchant_idx btree (idTransactionMerchant)",
      ]),
    );
  });
});
