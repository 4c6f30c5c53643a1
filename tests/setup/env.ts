// Every test process talks to the database prepared by the global setup, with a complete configuration.
import { inject } from "vitest";
import { markClientIpStamped } from "@/lib/http/client-ip";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.PLATFORM_BASE_URL ??= "http://127.0.0.1:9";
process.env.PLATFORM_TOKEN ??= "test-token-not-used";
// Tests that read a server message in Russian set the user's or the browser's language themselves.
process.env.DEFAULT_LOCALE ??= "en";
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
// Staff of every role sign in with a password alone unless a test sets the two-factor policy itself
// (tests/support/two-factor.ts); the shipped default is admin and approver.
process.env.TWO_FACTOR_REQUIRED_ROLES ??= "none";

// Tests stand where scripts/server.ts stands, in front of the app, stamping each request's client IP
// header (lib/http/client-ip). Tests of the app without that server clear the mark.
markClientIpStamped();
