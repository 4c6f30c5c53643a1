// Secrets and recipient numbers never reach a log line, whatever the depth of the object that carries them.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { logOptions } from "@/lib/log";

function logged(object: object): Record<string, unknown> {
  const lines: string[] = [];
  const log = pino(logOptions("info"), { write: (line: string) => lines.push(line) });
  log.info(object, "probe");
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

const SECRETS = {
  authorization: "Bearer eyJhbGciOi.secret",
  cookie: "authjs.session-token=abc",
  token: "jwt-value",
  password: "hunter2-hunter2",
  secret: "JBSWY3DPEHPK3PXP",
  number: "4111111111111111",
  numberAdditional: "+79001234567",
  recipientNumber: "40817810099910004312",
};

describe("log redaction", () => {
  it.each([0, 1, 2, 3])("redacts every secret key %i objects deep", (depth) => {
    let object: Record<string, unknown> = { ...SECRETS };
    for (let i = 0; i < depth; i++) object = { [`level${i}`]: object };
    const text = JSON.stringify(logged(object));
    for (const value of Object.values(SECRETS)) expect(text).not.toContain(value);
    expect(text.match(/\[redacted\]/g)).toHaveLength(Object.keys(SECRETS).length);
  });

  it("redacts inside arrays, and leaves other fields as they are", () => {
    const line = logged({
      platformCall: { traceID: "t-1", details: [{ number: "4111111111111111" }] },
      pages: 3,
    });
    expect(line).toMatchObject({
      app: "paydesk",
      msg: "probe",
      pages: 3,
      platformCall: { traceID: "t-1", details: [{ number: "[redacted]" }] },
    });
  });

  it("keeps the object logged unchanged", () => {
    const object = { request: { headers: { authorization: "Bearer x" } } };
    logged(object);
    expect(object.request.headers.authorization).toBe("Bearer x");
  });
});
