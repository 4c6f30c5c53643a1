// npm run worker — background jobs: webhook processing, reconciliation, balance snapshots, stuck checks.
import { startWorker } from "../lib/jobs/worker";
import { exitOnStartupProblem } from "../lib/startup";
import { loadDotEnv } from "./lib/dotenv";
import { dropOutputOnceItsReaderIsGone } from "./lib/lost-output";

// After SIGTERM: each webhook loop finishes the delivery it is deciding and gives back the rest of its
// batch; jobs in progress get JOB_DRAIN_MS (one still running then is marked failed, and pg-boss retries
// it at once: a pay-out's submission after 10 s); the process exits within SHUTDOWN_BOUND_MS whatever
// happens.
const JOB_DRAIN_MS = 20_000;
const SHUTDOWN_BOUND_MS = 25_000;

dropOutputOnceItsReaderIsGone();
loadDotEnv();
await exitOnStartupProblem();
const worker = await startWorker();
console.log("[worker] running: webhook processing and scheduled jobs");
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), SHUTDOWN_BOUND_MS).unref();
  await worker.stop(JOB_DRAIN_MS);
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
