import "server-only";
import pino from "pino";
import { getEnv } from "@/lib/env";

const globalForLog = globalThis as unknown as { paydeskLog?: pino.Logger };

/** Structured JSON logs. Secrets and recipient numbers are redacted wherever they appear by name. */
export function getLog(): pino.Logger {
  globalForLog.paydeskLog ??= pino({
    level: getEnv().LOG_LEVEL,
    base: { app: "paydesk" },
    redact: {
      paths: [
        "*.authorization",
        "*.token",
        "*.password",
        "*.number",
        "*.recipientNumber",
        "headers.authorization",
      ],
      censor: "[redacted]",
    },
  });
  return globalForLog.paydeskLog;
}
