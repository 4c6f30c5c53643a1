// A process whose output's reader has gone (a Procfile runner stopped first) goes on: its writes to stdout
// and stderr are dropped instead of ending it with an uncaught EPIPE (scripts/lib/lost-output.ts, called
// first by the web server and the worker).
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";

const guard = path.resolve(import.meta.dirname, "../../../scripts/lib/lost-output.ts");

/** Runs a process that writes to both streams after its reader has gone; its exit code and last words. */
async function writeAfterReaderIsGone(guarded: boolean) {
  const script = `
    ${guarded ? `(await import(${JSON.stringify(guard)})).dropOutputOnceItsReaderIsGone();` : ""}
    process.send("ready");
    process.once("message", () => {
      console.log("to a reader that has gone");
      console.error("to a reader that has gone");
      setTimeout(() => { process.send("still running"); process.exit(0); }, 200);
    });`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const messages: unknown[] = [];
  child.on("message", (m) => messages.push(m));
  await once(child, "message");
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.send("write");
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, messages };
}

describe("output whose reader has gone", () => {
  it("is dropped, and the process goes on", async () => {
    expect(await writeAfterReaderIsGone(true)).toEqual({ code: 0, messages: ["ready", "still running"] });
  }, 30_000);

  it("ends a process that does not drop it (what the web server and the worker did)", async () => {
    const { code, messages } = await writeAfterReaderIsGone(false);
    expect(code).toBe(1);
    expect(messages).toEqual(["ready"]);
  }, 30_000);
});
