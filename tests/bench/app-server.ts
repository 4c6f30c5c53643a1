// Builds (once) and serves the production app for a benchmark (signing in: ./sign-in.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";
import { freePort } from "../../scripts/lib/embedded-postgres";
import { serverCommand } from "../../scripts/lib/server-command";

const nextBin = path.join(projectRoot, "node_modules/next/dist/bin/next");

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, ...args], { stdio: "ignore", env, cwd: projectRoot });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`next ${args[0]} exited with ${code}`)),
    );
  });
}

let built = false;

export async function buildApp(env: NodeJS.ProcessEnv): Promise<void> {
  if (built) return;
  await run(["build"], { ...env, NODE_ENV: "production" });
  built = existsSync(path.join(projectRoot, ".next/BUILD_ID"));
}

export type AppServer = { url: string; pid: number; stop: () => Promise<void> };

export async function startApp(env: NodeJS.ProcessEnv): Promise<AppServer> {
  await buildApp(env);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [...serverCommand, "-p", String(port), "-H", "127.0.0.1"],
    {
      stdio: "ignore",
      // No load balancer to tell: stop() waits for the exit, which SIGTERM then starts at once.
      env: { SHUTDOWN_GRACE_MS: "0", ...env },
      cwd: projectRoot,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/login`)).status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not answer within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
