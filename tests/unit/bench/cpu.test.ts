import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuSeconds } from "../../bench/cpu";

describe("the bench's CPU readings", () => {
  it("count a child that has exited in its parent's figure only when asked to", async () => {
    const before = await cpuSeconds(process.pid, { reapedChildren: true });
    const ownBefore = await cpuSeconds(process.pid);
    // A child that spends ~0.3 s of CPU and exits; execFileSync waits for it, so it is reaped.
    execFileSync(process.execPath, ["-e", "const end = Date.now() + 300; while (Date.now() < end);"]);
    const withChildren = (await cpuSeconds(process.pid, { reapedChildren: true })) - before;
    const own = (await cpuSeconds(process.pid)) - ownBefore;
    expect(withChildren - own).toBeGreaterThanOrEqual(0.2);
    expect(own).toBeLessThan(0.2);
  });
});
