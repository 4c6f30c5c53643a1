// npm run worker — background jobs: webhook processing, reconciliation, balance snapshots, stuck checks.
import { startWorker } from "../lib/jobs/worker";
import { exitOnStartupProblem } from "../lib/startup";
import { loadDotEnv } from "./lib/dotenv";

loadDotEnv();
await exitOnStartupProblem();
const worker = await startWorker();
console.log("[worker] running: webhook processing and scheduled jobs");
const stop = async () => {
  await worker.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
