// npm run db:migrate — applies pending migrations to DATABASE_URL, or to the embedded database.
import path from "node:path";
import { openDatabase, projectRoot } from "./lib/database";
import { loadDotEnv } from "./lib/dotenv";
import { migrate } from "./lib/migrations";

loadDotEnv();
try {
  const db = await openDatabase({ dataDir: path.join(projectRoot, ".data/postgres"), database: "paydesk" });
  try {
    const result = await migrate(db.url, { log: (line) => console.log(line) });
    console.log(`migrations: ${result.applied.length} applied, ${result.alreadyApplied} already applied`);
  } finally {
    await db.stop();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
