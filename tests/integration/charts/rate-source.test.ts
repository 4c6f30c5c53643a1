// The balance card names the operation the platform takes its rate from: the merchant's last successfully
// *completed* operation (spec: GET /balance, rule 1), not the newest added one. On a database of its own:
// "last" is over the whole mirror.
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { lastSuccessfulOperationRate } from "@/lib/charts/queries";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

const at = (hhmm: string) => new Date(`2030-01-01T${hhmm}:00Z`);

it("none without a successful operation", async () => {
  await insertOperations([{ dateAdded: at("08:00"), status: "in_progress", exchangeRate: "80" }]);
  expect(await lastSuccessfulOperationRate()).toBeNull();
});

it("the operation that became success last, though added earlier; the history's moment wins", async () => {
  const [completedLast] = await insertOperations([
    // added first, completed last: its rate is the one GET /balance reports
    { dateAdded: at("10:00"), dateUpdated: at("12:00"), status: "success", exchangeRate: "90" },
  ]);
  await insertOperations([
    // added last, completed earlier
    { dateAdded: at("11:00"), dateUpdated: at("11:05"), status: "success", exchangeRate: "95" },
    // failed and pay-out holds are not completions
    { dateAdded: at("11:30"), dateUpdated: at("13:00"), status: "failed", exchangeRate: "99" },
    { dateAdded: at("11:40"), status: "in_progress", typeOperation: "payOut", exchangeRate: "98" },
  ]);
  expect(await lastSuccessfulOperationRate()).toEqual({
    operationId: completedLast,
    exchangeRate: "90",
    dateAdded: at("10:00"),
    completedAt: at("12:00"),
  });

  // a pay-out updated later (dateUpdated 14:00) whose history says it became success at 11:50
  const [payOut] = await insertOperations([
    {
      dateAdded: at("09:00"),
      dateUpdated: at("14:00"),
      status: "success",
      typeOperation: "payOut",
      exchangeRate: "91.5",
    },
  ]);
  expect((await lastSuccessfulOperationRate())?.operationId).toBe(payOut);
  await getDb().operationStatusChange.create({
    data: {
      operationId: payOut!,
      fromStatus: "in_progress",
      toStatus: "success",
      source: "webhook",
      platformDateUpdated: at("11:50"),
    },
  });
  expect((await lastSuccessfulOperationRate())?.operationId).toBe(completedLast);
});
