// A reconciliation page's new operations and its history go in by COPY (writeMirrorRows with the ids
// the mirror has, writeStatusChanges for more than a few rows: lib/operations/mirror/write-rows.ts).
// What they store must be exactly what the one-by-one upsert stores, whatever the text; a COPY that
// fails takes the whole batch with it.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as copyTextModule from "@/lib/db-copy-text";
import { getDb, withPoolTransaction } from "@/lib/db";
import { applySnapshotsBatch } from "@/lib/operations/mirror/apply-batch";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { COPY_FROM_ROWS, mirrorRow, writeMirrorRows } from "@/lib/operations/mirror/write-rows";
import { decodeOperation, type Operation } from "@/lib/platform/schemas";
import { parseWireJson } from "@/lib/platform/wire";

const db = getDb();
const BATCH = COPY_FROM_ROWS + 1;

// Text that COPY's format, JSON or a screen give a meaning to.
const HOSTILE = [
  "back\\slash",
  "tab\there",
  "new\nline",
  "carriage\rreturn",
  "\\N",
  "\\.",
  'quote " and \\"',
  "Ivan \u202Egnp.exe",
  "«Сбербанк» ёЁ 😀",
  "\\u0000 as text",
];

/** A pay-in (pay-outs from odd i) whose every text field carries hostile text, through the wire decoder. */
function hostile(i: number, id = randomUUID()): Operation {
  const s = (k: number) => HOSTILE[(i + k) % HOSTILE.length]!;
  const payIn = i % 2 === 0;
  const wire = {
    id,
    dateAdded: `2026-11-2${i % 10}T10:00:00.000Z`,
    dateUpdated: `2026-11-2${i % 10}T11:00:00.000Z`,
    typeOperation: payIn ? "payIn" : "payOut",
    status: ["created", "in_progress", "success", "failed"][i % 4],
    idTransactionMerchant: `order ${s(0)} ${i}`,
    currency: "RUB",
    paymentDetailsData: payIn
      ? {
          paymentMethod: i % 4 === 0 ? "sbp" : `new method ${s(1)}`,
          bankName: s(2),
          nameMediator: s(3),
          number: s(4),
          numberAdditional: i % 3 === 0 ? s(5) : { phone: s(6), codes: [s(7)], deep: { x: null } },
          qRcode: i % 3 === 1 ? null : s(8),
        }
      : null,
    linkPaymentForm: i % 5 === 0 ? `https://pay.example/${encodeURIComponent(s(9))}` : null,
  };
  const text = JSON.stringify(wire).replace(
    '"currency"',
    `"amountInitial":1500.5,"amountRandomized":1500.51,"amount":1500.51,"amountComission":45.0153,` +
      `"amountInCurrencyBalance":15.7,"amountComissionInCurrencyBalance":0.4714,"exchangeRate":95.5,"currency"`,
  );
  return decodeOperation(parseWireJson(text));
}

/** Everything stored of an operation and its history but its id and Paydesk's own clock readings. */
async function stored(id: string) {
  const {
    id: _id,
    raw,
    firstSeenAt,
    mirroredAt,
    snapshotReceivedAt,
    ...row
  } = await db.operation.findUniqueOrThrow({ where: { id } });
  const history = await db.operationStatusChange.findMany({
    where: { operationId: id },
    select: { fromStatus: true, toStatus: true, source: true, sourceRef: true, platformDateUpdated: true },
  });
  const postings = await db.ledgerPosting.findMany({
    where: { operationId: id },
    select: { kind: true, at: true, amount: true, holdDelta: true },
    orderBy: { kind: "asc" },
  });
  expect(firstSeenAt).toEqual(mirroredAt);
  return { row, raw: { ...(raw as object), id: "-" }, history, postings, receivedAt: snapshotReceivedAt };
}

afterEach(() => vi.restoreAllMocks());

describe("a batch's new operations and history by COPY", () => {
  it("stores exactly what the one-by-one upsert stores, whatever the text", async () => {
    const copied = Array.from({ length: BATCH }, (_, i) => hostile(i));
    const upserted = copied.map((_, i) => hostile(i));
    const copyText = vi.spyOn(copyTextModule, "copyText");
    const receivedAt = new Date("2026-11-24T08:00:00.000Z");
    const sourceRef = "trace \\ \t \n \u202E 😀";

    const results = await applySnapshotsBatch(copied, "reconciliation", sourceRef, receivedAt);
    expect(results.map((r) => r.outcome)).toEqual(Array(BATCH).fill("inserted"));
    // Both COPYs ran: the operations' and the history's.
    expect(copyText.mock.calls.map(([rows]) => rows.length)).toEqual([BATCH, BATCH]);
    copyText.mockClear();
    for (const op of upserted) await applySnapshot(op, "reconciliation", { receivedAt, sourceRef });
    expect(copyText).not.toHaveBeenCalled();

    for (let i = 0; i < BATCH; i++) {
      const [viaCopy, viaUpsert] = [await stored(copied[i]!.id), await stored(upserted[i]!.id)];
      expect(viaCopy).toEqual(viaUpsert);
      expect(viaCopy.history).toEqual([expect.objectContaining({ fromStatus: null, sourceRef })]);
    }
    expect((await stored(copied[1]!.id)).row.idTransactionMerchant).toBe(`order ${HOSTILE[1]} 1`);
    expect((await stored(copied[2]!.id)).row.detailsBankName).toBe(HOSTILE[4]);
  });

  it("a COPY that fails undoes the whole batch: an operation another writer inserted meanwhile", async () => {
    const ops = Array.from({ length: BATCH }, (_, i) => hostile(i));
    const receivedAt = new Date();
    const now = receivedAt.toISOString();
    const rows = ops.map((op) =>
      mirrorRow(op, "reconciliation", { paymentMethod: null, kept: null, receivedAt, now }),
    );
    // As if a writer had broken the locking rule: the row is there though the batch read none.
    await applySnapshot(ops[7]!, "readBack");
    const error = await withPoolTransaction((tx) => writeMirrorRows(tx, rows, new Map()), {
      statementTimeoutMs: 5_000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    const left = await db.operation.findMany({
      where: { id: { in: ops.map((op) => op.id) } },
      select: { id: true },
    });
    expect(left).toEqual([{ id: ops[7]!.id }]);
  });

  // A NUL failed the whole batch before, and so the page, every run: one item the platform sent stopped
  // reconciliation for good. It is stored as U+FFFD, as the single-row upsert stores it.
  it("an operation with a NUL character in a text and in its raw JSON is stored with U+FFFD, with its batch", async () => {
    const ops = Array.from({ length: BATCH }, (_, i) => hostile(i));
    const nul = hostile(0);
    const poisoned: Operation = {
      ...nul,
      idTransactionMerchant: "order\u0000x",
      raw: { ...nul.raw, idTransactionMerchant: "order\u0000x" },
    };
    await applySnapshotsBatch([...ops, poisoned], "reconciliation", null);
    const ids = [...ops, poisoned].map((op) => op.id);
    expect(await db.operation.count({ where: { id: { in: ids } } })).toBe(ids.length);
    const stored = await db.operation.findUniqueOrThrow({ where: { id: poisoned.id } });
    expect(stored.idTransactionMerchant).toBe("order\uFFFDx");
    expect((stored.raw as { idTransactionMerchant: string }).idTransactionMerchant).toBe("order\uFFFDx");
    expect(await db.operationStatusChange.count({ where: { operationId: { in: ids } } })).toBe(ids.length);
  });
});
