// The sandbox in a process of its own for benchmarks: the platform is remote in real life, so its CPU
// should not be counted against the client being measured.
import { createSandbox } from "../../sandbox/index";

const sandbox = await createSandbox({ port: 0, seedDemoHistory: false });
const demo = sandbox.merchants().find((m) => m.id === "demo");
process.send?.({ url: sandbox.url, token: demo?.token });
process.on("SIGTERM", () => void sandbox.stop().then(() => process.exit(0)));
