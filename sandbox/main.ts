import { resolve } from "node:path";
import { createSandbox } from "./index";

/** `npm run sandbox`: SANDBOX_PORT (4010), SANDBOX_AUTOPILOT ("1" = on), SANDBOX_STATE_FILE (.data/sandbox/state.json). */

async function main(): Promise<void> {
  const port = Number(process.env.SANDBOX_PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`SANDBOX_PORT must be a port number, got '${process.env.SANDBOX_PORT}'`);
  const stateFile = resolve(process.env.SANDBOX_STATE_FILE ?? ".data/sandbox/state.json");
  const sandbox = await createSandbox({
    port,
    host: process.env.SANDBOX_HOST ?? "127.0.0.1",
    stateFile,
    autopilot: process.env.SANDBOX_AUTOPILOT === "1",
  });
  console.log(`Platform sandbox listening on ${sandbox.url}`);
  console.log(
    `  controls: ${sandbox.url}/__sandbox/   state: ${stateFile}   autopilot: ${process.env.SANDBOX_AUTOPILOT === "1" ? "on" : "off"}`,
  );
  for (const merchant of sandbox.merchants()) {
    console.log(
      `  merchant ${merchant.id} (${merchant.balanceCurrency}/${merchant.paymentCurrency}, ${merchant.dialect}): ${merchant.token}`,
    );
  }
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`Sandbox stopping (${signal}), saving state...`);
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
