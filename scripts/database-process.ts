// The embedded PostgreSQL of `npm run dev`, in a process group of its own: Ctrl-C in the terminal
// reaches the servers and the worker, which stop first, and `npm run dev` then stops this process
// (message "stop"). If `npm run dev` dies without saying so, the closed IPC channel stops it too.
import { startEmbeddedPostgres } from "./lib/embedded-postgres";

type Options = Parameters<typeof startEmbeddedPostgres>[0];

const options = JSON.parse(process.argv[2] ?? "{}") as Omit<Options, "log">;
const send = (message: object) => {
  if (process.connected) process.send?.(message);
};

try {
  const db = await startEmbeddedPostgres({ ...options, log: (line) => send({ log: line }) });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await db.stop().catch(() => {});
    process.exit(0);
  };
  process.on("message", (message) => message === "stop" && void stop());
  process.on("disconnect", () => void stop());
  send({ url: db.url });
} catch (error) {
  send({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
