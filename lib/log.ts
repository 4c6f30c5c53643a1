import "server-only";
import pino from "pino";
import { getEnv } from "@/lib/env";
import { serializeError } from "@/lib/log-error";

const globalForLog = globalThis as unknown as { paydeskLog?: pino.Logger };

/** Structured JSON logs. Secrets and recipient numbers are redacted wherever they appear by name. */
export function getLog(): pino.Logger {
  globalForLog.paydeskLog ??= pino({
    level: getEnv().LOG_LEVEL,
    base: { app: "paydesk" },
    serializers: { err: serializeError, error: serializeError },
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
