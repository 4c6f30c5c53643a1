// npm run bench [-- sandbox integration processing console statements retention]: prints a table and writes bench-results/<time>.json.
// The statements section also takes --only=xlsx (just the XLSX export) and --operations=N (a smaller mirror).
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { seedDemoUsers } from "../../scripts/lib/demo-users";
import { getDb } from "../../lib/db";
import { enrolUser } from "../support/two-factor";
import { startApp } from "./app-server";
import { createBenchDatabase, pointAtDatabase } from "./databases";
import { signIn } from "./sign-in";
import { benchConsole } from "./console";
import { benchIntegration } from "./integration";
import { benchProcessing } from "./processing";
import { benchRetention } from "./retention";
import { benchSandbox, type BenchFigure } from "./sandbox";
import { benchStatements } from "./statements";

const all = ["sandbox", "integration", "processing", "console", "statements", "retention"] as const;
type Section = (typeof all)[number];
const chosen = process.argv.slice(2).filter((a) => (all as readonly string[]).includes(a)) as Section[];
const sections: readonly Section[] = chosen.length ? chosen : all;

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "paydesk-bench-"));
  const pgServer = await startEmbeddedPostgres({ dataDir, database: "postgres_bench", persistent: false });
  Object.assign(process.env, {
    PLATFORM_BASE_URL: "http://127.0.0.1:9",
    PLATFORM_TOKEN: "bench-not-used",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "warn",
  });
  const figures: BenchFigure[] = [];
  const started = new Date();
  try {
    for (const section of sections) {
      const t = performance.now();
      console.log(`[bench] ${section} ...`);
      if (section === "sandbox") figures.push(...(await benchSandbox()));
      if (section === "integration") {
        const url = await createBenchDatabase(pgServer.url, "bench_integration");
        figures.push(...(await benchIntegration({ databaseUrl: url, appEnv: await pointAtDatabase(url) })));
      }
      if (section === "processing") {
        const url = await createBenchDatabase(pgServer.url, "bench_processing");
        figures.push(...(await benchProcessing({ databaseUrl: url, appEnv: await pointAtDatabase(url) })));
      }
      if (section === "retention") {
        const url = await createBenchDatabase(pgServer.url, "bench_retention");
        await pointAtDatabase(url);
        figures.push(...(await benchRetention({ databaseUrl: url })));
      }
      if (section === "console") {
        const url = await createBenchDatabase(pgServer.url, "bench_console");
        const env = await pointAtDatabase(url);
        await seedDemoUsers();
        const app = await startApp(env);
        try {
          const cookie = await signIn(app.url, "finance@paydesk.local", "paydesk-finance-demo");
          // An admin must use two-factor (the default policy): enrolled, and signed in with a code.
          const admin = await getDb().user.findUniqueOrThrow({ where: { email: "admin@paydesk.local" } });
          const secret = await enrolUser(admin.id);
          const adminCookie = await signIn(app.url, admin.email, "paydesk-admin-demo", secret);
          figures.push(
            ...(await benchConsole({
              databaseUrl: url,
              baseUrl: app.url,
              cookie,
              adminCookie,
              serverPid: app.pid,
            })),
          );
        } finally {
          await app.stop();
        }
      }
      if (section === "statements") {
        const url = await createBenchDatabase(pgServer.url, "bench_statements");
        await pointAtDatabase(url);
        figures.push(...(await benchStatements({ databaseUrl: url })));
      }
      console.log(`[bench] ${section} done in ${Math.round((performance.now() - t) / 1000)} s`);
    }
  } finally {
    await pgServer.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.table(
    figures.map((f) => ({
      figure: f.name,
      value: f.value,
      unit: f.unit,
      goal: f.goal ?? "",
      ok: f.ok === undefined ? "" : f.ok ? "yes" : "NO",
    })),
  );
  const outDir = path.join(projectRoot, "bench-results");
  await mkdir(outDir, { recursive: true });
  const report = {
    startedAt: started.toISOString(),
    machine: {
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    sections,
    figures,
  };
  const file = path.join(outDir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  await writeFile(file, JSON.stringify(report, null, 2));
  await writeFile(path.join(outDir, "latest.json"), JSON.stringify(report, null, 2));
  console.log(`[bench] written ${path.relative(projectRoot, file)}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
