// Builds (once) and serves the production app for a benchmark, and signs a user in.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";
import { freePort } from "../../scripts/lib/embedded-postgres";
import { serverCommand } from "../../scripts/lib/server-command";
import { codeAt } from "../../lib/auth/two-factor/totp";

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
      env,
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

const SESSION_COOKIE = "authjs.session-token=";
const CHALLENGE_COOKIE = "paydesk-sign-in="; // lib/auth/two-factor/sign-in.ts

/** `name=value` of the response's cookie whose Set-Cookie starts with `prefix`, or undefined. */
function cookieOf(response: Response, prefix: string): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith(prefix))
    ?.split(";")[0];
}

/**
 * Signs in through Auth.js's credentials endpoint; returns the session cookie as `name=value`. A user
 * enrolled in two-factor needs `totpSecret`: the password step then opens a challenge, and the code
 * step (the challenge and a current code) opens the session, as the sign-in page does.
 */
export async function signIn(
  url: string,
  email: string,
  password: string,
  totpSecret?: string,
): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const post = (fields: Record<string, string>, cookie: string) =>
    fetch(`${url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, ...fields, callbackUrl: `${url}/` }),
    });
  const first = await post({ email, password }, csrfCookie);
  let session = cookieOf(first, SESSION_COOKIE);
  const challenge = cookieOf(first, CHALLENGE_COOKIE);
  if (!session && challenge && totpSecret) {
    const token = challenge.slice(CHALLENGE_COOKIE.length);
    const second = await post(
      { challenge: token, code: codeAt(totpSecret, new Date()) },
      `${csrfCookie}; ${challenge}`,
    );
    session = cookieOf(second, SESSION_COOKIE);
  }
  if (!session) {
    const why =
      challenge && !totpSecret ? ": the user is enrolled in two-factor and no secret was given" : "";
    throw new Error(`sign-in as ${email} failed (HTTP ${first.status})${why}`);
  }
  return session;
}
