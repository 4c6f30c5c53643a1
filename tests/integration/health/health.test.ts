import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { checkHealth } from "@/lib/health";
import { createPlatformClient, type PlatformClient } from "@/lib/platform/client";
import { databaseRecorder } from "@/lib/platform/record-to-db";
import { isolateDatabase } from "../../support/database";
import { demoToken, startSandbox } from "../../support/sandbox";

let restoreDatabase: () => Promise<void>;
let sandbox: Sandbox;

beforeAll(async () => {
  restoreDatabase = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
});
afterAll(async () => {
  await sandbox.stop();
  await restoreDatabase();
});
beforeEach(() => getDb().apiCall.deleteMany());

function platformAt(baseUrl: string, token = demoToken(sandbox)): PlatformClient {
  return createPlatformClient({
    baseUrl,
    token,
    timeoutMs: 2_000,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    recorder: databaseRecorder,
  });
}

/** A platform whose bank list is counted, to see whether the health check called it. */
function counting(inner: PlatformClient) {
  const counter = { calls: 0 };
  return {
    counter,
    platform: {
      getBanks: (...args: Parameters<PlatformClient["getBanks"]>) => {
        counter.calls += 1;
        return inner.getBanks(...args);
      },
    },
  };
}

describe("health: the platform part", () => {
  it("is unknown, and not ok, before any call when it may not probe", async () => {
    const health = await checkHealth({ platform: null });
    expect(health.parts.platform).toMatchObject({ ok: false, state: "unknown" });
    expect(health.failing).toContain("platform");
    expect(health.ok).toBe(false);
  });

  it("makes one cheap call itself when there is none, and reports what it answered", async () => {
    const { platform, counter } = counting(platformAt(sandbox.url));
    const health = await checkHealth({ platform });
    expect(counter.calls).toBe(1);
    expect(health.parts.platform).toMatchObject({ ok: true, state: "ok" });
    expect(await getDb().apiCall.count({ where: { path: "/masterdata/bank/list" } })).toBe(1);
  });

  it("does not call again while the last call is under a minute old, and probes again after it", async () => {
    const { platform, counter } = counting(platformAt(sandbox.url));
    await checkHealth({ platform });
    await checkHealth({ platform });
    expect(counter.calls).toBe(1);
    await checkHealth({ platform, now: new Date(Date.now() + 61_000) });
    expect(counter.calls).toBe(2);
  });

  it("shares one probe between checks that arrive together", async () => {
    const { platform, counter } = counting(platformAt(sandbox.url));
    await Promise.all([checkHealth({ platform }), checkHealth({ platform }), checkHealth({ platform })]);
    expect(counter.calls).toBe(1);
  });

  it("is failing when the platform cannot be reached", async () => {
    const closed = platformAt("http://127.0.0.1:9");
    const health = await checkHealth({ platform: closed });
    expect(health.parts.platform).toMatchObject({ ok: false, state: "failing" });
    expect(health.parts.platform?.detail).toMatch(/failed/);
  });

  it("is failing when the platform refuses the token", async () => {
    const health = await checkHealth({ platform: platformAt(sandbox.url, "not-a-token") });
    expect(health.parts.platform).toMatchObject({ ok: false, state: "failing" });
    expect(health.parts.platform?.detail).toMatch(/refused the token/);
  });
});
