// Columns of the operations list a user can choose; shared by the server (validation) and the chooser.
export const operationColumns = [
  { key: "dateAdded", label: "Created" },
  { key: "dateUpdated", label: "Updated" },
  { key: "typeOperation", label: "Type" },
  { key: "status", label: "Status" },
  { key: "idTransactionMerchant", label: "Merchant id" },
  { key: "amount", label: "Amount" },
  { key: "amountComission", label: "Commission" },
  { key: "amountInCurrencyBalance", label: "Amount (balance)" },
  { key: "exchangeRate", label: "Rate" },
  { key: "paymentMethod", label: "Method" },
  { key: "bankName", label: "Bank" },
  { key: "number", label: "Number" },
  { key: "id", label: "Operation id" },
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
