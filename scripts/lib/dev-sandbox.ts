// Starts the platform sandbox for `npm run dev` and the end-to-end tests, and picks the demo merchant.
import path from "node:path";
import { createSandbox } from "../../sandbox";

export type RunningSandbox = { url: string; token: string; stop: () => Promise<void> };

/**
 * Sets the demo merchant's default webhook URL (the platform's personal-account setting) to this
 * console: the route with its secret path segment (lib/webhooks/path-secret.ts).
 */
export async function registerWebhookUrl(sandboxUrl: string, webhookUrl: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/merchants/demo`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ webhookUrl }),
  });
  if (!response.ok)
    throw new Error(`Could not set the sandbox webhook URL: ${response.status} ${await response.text()}`);
}

async function start(
  options: Parameters<typeof createSandbox>[0],
  webhookUrl: string | null,
): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options);
  const demo = sandbox.merchants().find((m) => m.id === "demo");
  if (!demo) throw new Error("The sandbox has no `demo` merchant.");
  if (webhookUrl) await registerWebhookUrl(sandbox.url, webhookUrl);
  return { url: sandbox.url, token: demo.token, stop: sandbox.stop };
}

/**
 * State in .data/sandbox survives restarts, so the mirror never disagrees with a sandbox that forgot.
 * The webhook URL is registered afterwards (registerWebhookUrl), once the secret path segment is known.
 */
export async function startDevSandbox(
  dataDir: string,
  webhookUrl: string | null = null,
): Promise<RunningSandbox> {
  const stateFile = path.join(dataDir, "sandbox/state.json");
  const port = Number(process.env.SANDBOX_PORT ?? 4010);
  try {
    return await start({ port, stateFile, autopilot: true }, webhookUrl);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    return start({ port: 0, stateFile, autopilot: true }, webhookUrl);
  }
}

export function startTestSandbox(webhookUrl: string | null = null): Promise<RunningSandbox> {
  // No seeded history: the e2e mirror holds only the fixtures and what the tests create.
  return start({ port: 0, seedDemoHistory: false, webhookRetry: { baseMs: 200, attempts: 6 } }, webhookUrl);
}
