// Creates its share of the chaos test's operations through the production creation path (createOnce,
// the intent stored before sending) from an OS process of its own, the way a web server does when staff
// create pay-ins and pay-outs. Killed with SIGKILL midway, a replacement resumes the same share: what was
// confirmed is answered from the intent, a pending intent is resent with the same id, the rest is created.
import { createOnce, resolvePendingIntent, type Creation } from "@/lib/operations/mirror/create-once";
import { getPlatformClient } from "../../../../lib/platform/from-env";

type Share = { indices: number[]; runId: string; webhookUrl: string; concurrency: number };
const share = JSON.parse(process.argv[2] ?? "{}") as Share;

function chaosMerchantId(runId: string, i: number): string {
  return `mp-${runId}-${i}`;
}

function creation(i: number): Creation {
  const common = {
    idTransactionMerchant: chaosMerchantId(share.runId, i),
    amount: `${100 + (i % 900)}.${String(i % 10000).padStart(4, "0")}`,
    clientID: `client-${i % 97}`,
    clientIP: "203.0.113.20",
    clientDateCreated: "2023-03-01T12:00:00.000Z",
    integrationMerhcnatData: { webHook: share.webhookUrl },
  };
  // every fourth one a pay-out to a card, the rest pay-ins
  return i % 4 === 3
    ? {
        kind: "payOut",
        request: {
          ...common,
          paymentMethod: "toCard",
          number: "4276000000000001",
          bankName: "Sberbank",
        },
      }
    : { kind: "payIn", request: { ...common, paymentMethod: i % 3 === 0 ? "sbp" : "toCard" } };
}

const platform = getPlatformClient();
let done = 0;
let next = 0;
const report = () => process.send?.({ done });
const timer = setInterval(report, 250);

async function one(i: number): Promise<void> {
  const c = creation(i);
  const id = c.request.idTransactionMerchant;
  // createOnce answers a confirmed intent from the database and resends a pending one with the same id.
  let outcome = await createOnce(platform, c, {}, { resendDelayMs: 10 });
  while (outcome.status === "pending") outcome = await resolvePendingIntent(platform, id);
  if (outcome.status !== "created") throw new Error(`${id}: ${JSON.stringify(outcome)}`);
  done += 1;
}

await Promise.all(
  Array.from({ length: share.concurrency }, async () => {
    while (next < share.indices.length) await one(share.indices[next++]!);
  }),
).then(
  () => {
    clearInterval(timer);
    process.send?.({ done, finished: true }, () => process.exit(0));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
