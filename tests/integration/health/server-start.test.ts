// The web server's start-up, as a process: a bad PORT or --port is refused with one line naming it (it
// listened on a random port for PORT="" and died with an ERR_SOCKET_BAD_PORT trace for PORT=abc); the
// address it logs is the one it listens on (every interface without --hostname, not "localhost"); and
// --webhooks-only, which runs without Next.js and so without instrumentation.ts, reports a bad
// configuration the same one-line way instead of an EnvError stack trace.
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/embedded-postgres";
import { startServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

let server: ServerProcess | undefined;
afterEach(() => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  server = undefined;
});

/** Starts the server and waits for it to give up (or, failing that, 30 s: "still running"). */
async function refusal(args: string[], env: Record<string, string | undefined>) {
  server = startServer(args, env);
  const timeout = new Promise<string>((resolve) =>
    setTimeout(() => resolve("still running"), 30_000).unref(),
  );
  const code = await Promise.race([server.exited, timeout]);
  return { code, ...server.output() };
}

// Where a case names a port, a free one: the old code listened there instead of refusing.
const FREE = "free port";

describe("web server start-up", () => {
  it.each([
    [
      "PORT=abc",
      ["--webhooks-only"],
      { PORT: "abc" },
      "Configuration error: PORT must be a port number from 1 to 65535",
    ],
    [
      "PORT=0",
      ["--webhooks-only"],
      { PORT: "0" },
      "Configuration error: PORT must be a port number from 1 to 65535",
    ],
    [
      "PORT=0x10",
      ["--webhooks-only"],
      { PORT: "0x10" },
      "Configuration error: PORT must be a port number from 1 to 65535",
    ],
    // with Next.js too: the port is settled before Next.js loads
    [
      "PORT=70000 (npm start)",
      [],
      { PORT: "70000" },
      "Configuration error: PORT must be a port number from 1 to 65535",
    ],
    [
      "--port ''",
      ["--webhooks-only", "--port", ""],
      {},
      "Configuration error: --port must be a port number from 1 to 65535",
    ],
    [
      "SHUTDOWN_GRACE_MS=5s",
      ["--webhooks-only", "--port", FREE],
      { SHUTDOWN_GRACE_MS: "5s" },
      "Configuration error: SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 60000",
    ],
    [
      "a short AUTH_SECRET (--webhooks-only)",
      ["--webhooks-only", "--port", FREE],
      { AUTH_SECRET: "short" },
      "Configuration error: AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)",
    ],
    ["an unknown option", ["--webhooks-only", "--prot", "4000"], {}, "Unknown option '--prot'"],
  ])(
    "refuses %s with one line and exit code 1",
    async (_, args, env, line) => {
      const port = String(await freePort());
      const { code, stdout, stderr } = await refusal(
        args.map((a) => (a === FREE ? port : a)),
        env,
      );
      expect(code).toBe(1);
      expect(stderr.split("\n")[0]).toContain(line);
      expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
      expect(stderr).not.toMatch(/EnvError|ERR_SOCKET_BAD_PORT|ERR_PARSE_ARGS/);
      expect(stdout).not.toMatch(/webhook receiver on/);
    },
    60_000,
  );

  it("logs every interface when started without --hostname, with the port it listens on", async () => {
    const port = await freePort();
    server = startServer(["--webhooks-only"], { PORT: String(port), SHUTDOWN_GRACE_MS: "0" });
    await waitUntilReady(server, `http://127.0.0.1:${port}`);
    expect(server.output().stdout).toMatch(
      new RegExp(`webhook receiver on every interface \\((::|0\\.0\\.0\\.0)\\), port ${port}`),
    );
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);

  it("logs the address it was given with --hostname", async () => {
    const port = await freePort();
    server = startServer(["--webhooks-only", "--hostname", "127.0.0.1", "--port", String(port)], {
      SHUTDOWN_GRACE_MS: "0",
    });
    await waitUntilReady(server, `http://127.0.0.1:${port}`);
    expect(server.output().stdout).toContain(`webhook receiver on http://127.0.0.1:${port}\n`);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});
