// npm run db:migrate — applies pending migrations to DATABASE_URL (from the environment or .env), and
// says which database that is. Without DATABASE_URL it refuses, unless given --embedded: then it
// migrates the embedded development database in .data/postgres (never with NODE_ENV=production).
import { parseArgs } from "node:util";
import { describeDatabaseUrl, embeddedDataDir, migrationTargetProblem, openDatabase } from "./lib/database";
import { loadDotEnv } from "./lib/dotenv";
import { migrate } from "./lib/migrations";

const usage = `usage: npm run db:migrate [-- --embedded]
  applies pending migrations to DATABASE_URL (from the environment or .env);
  --embedded: to the embedded development database in .data/postgres instead (never with NODE_ENV=production)`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let embedded: boolean;
try {
  embedded = parseArgs({ options: { embedded: { type: "boolean", default: false } } }).values.embedded;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
}
loadDotEnv();
const problem = migrationTargetProblem({
  databaseUrl: process.env.DATABASE_URL,
  nodeEnv: process.env.NODE_ENV,
  embedded,
});
if (problem) fail(problem);
try {
  const db = await openDatabase({ dataDir: embeddedDataDir, database: "paydesk" });
  try {
    console.log(
      db.embedded
        ? `migrating the EMBEDDED DEVELOPMENT database in .data/postgres (${describeDatabaseUrl(db.url)})`
        : `migrating ${describeDatabaseUrl(db.url)} (DATABASE_URL)`,
    );
    const result = await migrate(db.url, { log: (line) => console.log(line) });
    console.log(`migrations: ${result.applied.length} applied, ${result.alreadyApplied} already applied`);
  } finally {
    await db.stop();
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
