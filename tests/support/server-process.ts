// The web server (scripts/server.ts, what `npm start` runs) as a real process, for tests of what only a
// process shows: its start-up refusals, the address it reports, its SIGTERM. In --webhooks-only mode
// (no Next.js build needed), on the test database, output collected.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from "node:http";
import { sleep } from "@/lib/time/sleep";
import { serverCommand } from "../../scripts/lib/server-command";
import { projectRoot } from "../../scripts/lib/database";

export type ServerProcess = {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
};

// The webhook endpoint's secret from the environment: the server then writes nothing to the database.
export const PATH_SECRET = "server-process-test-path-secret-0123";

export function startServer(
  args: string[],
  env: Record<string, string | undefined> = {},
  /** As `npm start` runs it: under the tsx command (a parent that relays signals), in a process group of its own. */
  how: "node" | "tsx-group" = "node",
): ServerProcess {
  const [command, commandArgs] =
    how === "node"
      ? [process.execPath, serverCommand]
      : [
          path.join(projectRoot, "node_modules/.bin/tsx"),
          serverCommand.filter((a) => a !== "--import" && a !== "tsx"),
        ];
  const child = spawn(command, [...commandArgs, ...args], {
    cwd: projectRoot,
    env: { ...process.env, WEBHOOK_PATH_SECRET: PATH_SECRET, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: how === "tsx-group",
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Waits (polling, with a generous deadline) until `check` is true; fails at once when the server exited. */
export async function waitFor(
  server: Pick<ServerProcess, "child" | "output">,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null) {
      const { stdout, stderr } = server.output();
      throw new Error(`the server exited (${server.child.exitCode}) before ${what}:\n${stdout}\n${stderr}`);
    }
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export type Answer = { status: number; headers: IncomingHttpHeaders; body: string; reusedSocket: boolean };

/** One GET over node:http: on a fresh connection (no agent) or on an agent's pooled one. */
export function get(url: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Until the server answers its readiness probe with 200 (it has started). */
export function waitUntilReady(server: ServerProcess, origin: string): Promise<void> {
  return waitFor(server, "readiness", async () =>
    get(`${origin}/api/health/ready`).then(
      (answer) => answer.status === 200,
      () => false,
    ),
  );
}
