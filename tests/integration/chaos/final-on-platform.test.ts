// The chaos runs poll the platform for final statuses while its faults are on. A list call that fails on
// every attempt is "not yet" there, not a failed run (CI once failed that way); other errors still fail it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { createPlatformClient } from "@/lib/platform/client";
import { PlatformError } from "@/lib/platform/errors";
import { allFinalOnPlatform } from "../../support/chaos-checks";
import { clientFor, control, demoToken, startSandbox } from "../../support/sandbox";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
});
afterAll(() => sandbox.stop());
afterEach(() => control(sandbox, "DELETE", "/faults"));

describe("allFinalOnPlatform", () => {
  it("answers true when nothing is asked for and the platform answers", async () => {
    expect(await allFinalOnPlatform(clientFor(sandbox).platform, new Set())).toBe(true);
  });

  it("answers false, not an error, when every attempt of a list call meets an injected 5xx", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 1, errorMode: "http500" });
    const { platform } = clientFor(sandbox);
    await expect(platform.listOperations({ skip: 0, take: 10 })).rejects.toMatchObject({ kind: "transport" });
    expect(await allFinalOnPlatform(platform, new Set(["any"]))).toBe(false);
  });

  it("answers false while an asked-for intent has no operation yet", async () => {
    expect(await allFinalOnPlatform(clientFor(sandbox).platform, new Set(["never-created"]))).toBe(false);
  });

  it("still fails on any other error (a refused token)", async () => {
    const platform = createPlatformClient({
      baseUrl: sandbox.url,
      token: `${demoToken(sandbox)}-wrong`,
      timeoutMs: 5_000,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const failure = await allFinalOnPlatform(platform, new Set(["any"])).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PlatformError);
    expect((failure as PlatformError).kind).toBe("auth");
  });
});
