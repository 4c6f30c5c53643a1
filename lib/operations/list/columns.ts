// Columns of the operations list a user can choose; shared by the server (validation) and the chooser.
// Their titles are in the catalogs (operations.column.<key>).
export const operationColumns = [
  { key: "dateAdded" },
  { key: "dateUpdated" },
  { key: "typeOperation" },
  { key: "status" },
  { key: "idTransactionMerchant" },
  { key: "amount" },
  { key: "amountComission" },
  { key: "amountInCurrencyBalance" },
  { key: "exchangeRate" },
  { key: "paymentMethod" },
  { key: "bankName" },
  { key: "number" },
  { key: "id" },
] as const;

export type OperationColumn = (typeof operationColumns)[number]["key"];

export const columnKeys = operationColumns.map((c) => c.key) as [OperationColumn, ...OperationColumn[]];

export const defaultColumns: OperationColumn[] = [
  "dateAdded",
  "typeOperation",
  "status",
  "idTransactionMerchant",
  "amount",
  "amountInCurrencyBalance",
  "paymentMethod",
  "number",
];
