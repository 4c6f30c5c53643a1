// Every test process talks to the database prepared by the global setup.
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
