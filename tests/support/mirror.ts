// Inserts mirrored operations (and their related rows) directly, for list, export and lookup tests.
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db";
import type { OperationStatus, OperationType, SnapshotSource } from "@/lib/generated/prisma/enums";

export type MirrorRow = {
  id?: string;
  dateAdded: Date;
  dateUpdated?: Date | null;
  typeOperation?: OperationType;
  status?: OperationStatus;
  idTransactionMerchant?: string;
  amount?: string;
  amountComission?: string | null;
  currency?: string;
  amountInCurrencyBalance?: string | null;
  amountComissionInCurrencyBalance?: string | null;
  exchangeRate?: string | null;
  paymentMethod?: string | null;
  detailsNumber?: string | null;
  detailsBankName?: string | null;
  lastSource?: SnapshotSource;
};

export function mirrorRow(row: MirrorRow) {
  const id = row.id ?? randomUUID();
  const amount = row.amount ?? "100";
  const typeOperation = row.typeOperation ?? "payIn";
  return {
    id,
    dateAdded: row.dateAdded,
    dateUpdated: row.dateUpdated === undefined ? row.dateAdded : row.dateUpdated,
    typeOperation,
    status: row.status ?? "created",
    idTransactionMerchant: row.idTransactionMerchant ?? `t-${id}`,
    amountInitial: amount,
    amountRandomized: amount,
    amount,
    amountComission: row.amountComission === undefined ? "1.5" : row.amountComission,
    currency: row.currency ?? "RUB",
    amountInCurrencyBalance: row.amountInCurrencyBalance === undefined ? "1.05" : row.amountInCurrencyBalance,
    amountComissionInCurrencyBalance:
      row.amountComissionInCurrencyBalance === undefined ? "0.0157" : row.amountComissionInCurrencyBalance,
    exchangeRate: row.exchangeRate === undefined ? "95.5" : row.exchangeRate,
    paymentMethod: row.paymentMethod === undefined ? "toCard" : row.paymentMethod,
    detailsNumber:
      row.detailsNumber === undefined
        ? typeOperation === "payIn"
          ? "4276000000000001"
          : null
        : row.detailsNumber,
    detailsBankName:
      row.detailsBankName === undefined
        ? typeOperation === "payIn"
          ? "Sberbank"
          : null
        : row.detailsBankName,
    raw: {
      id,
      amount,
      status: row.status ?? "created",
      paymentDetailsData: { number: row.detailsNumber ?? null },
    },
    lastSource: row.lastSource ?? "reconciliation",
  };
}

export async function insertOperations(rows: MirrorRow[]): Promise<string[]> {
  const data = rows.map(mirrorRow);
  await getDb().operation.createMany({ data });
  return data.map((d) => d.id);
}

/** A user of the given role with a unique email (no password: not for sign-in). */
export async function createStaff(role: "admin" | "finance" | "approver" | "support") {
  return getDb().user.create({
    data: { email: `${role}-${randomUUID()}@test.local`, role, name: `Test ${role}` },
    select: { id: true, email: true, name: true, role: true },
  });
}
