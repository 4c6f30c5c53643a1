// A sandbox platform per test file, and a Paydesk platform client pointed at it.
import { createSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/index";
import { createPlatformClient, type PlatformClient } from "@/lib/platform/client";
import { InMemoryRecorder } from "./in-memory-recorder";

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ port: 0, webhookRetry: { baseMs: 20, attempts: 4 }, ...options });
}

export function demoToken(sandbox: Sandbox, merchant = "demo"): string {
  const found = sandbox.merchants().find((m) => m.id === merchant);
  if (!found) throw new Error(`no merchant ${merchant}`);
  return found.token;
}

export function clientFor(
  sandbox: Sandbox,
  merchant = "demo",
): { platform: PlatformClient; recorder: InMemoryRecorder } {
  const recorder = new InMemoryRecorder();
  const platform = createPlatformClient({
    baseUrl: sandbox.url,
    token: demoToken(sandbox, merchant),
    timeoutMs: 5_000,
    retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 },
    recorder,
  });
  return { platform, recorder };
}

export async function control(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /__sandbox${path} -> ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}
