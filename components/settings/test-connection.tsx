"use client";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { testConnectionAction } from "@/lib/actions/settings";

/** Calls the platform with the configured token and shows the outcome, latency and traceID. */
export function TestConnection() {
  const [pending, startTransition] = useTransition();
  const [text, setText] = useState<{ ok: boolean; text: string } | null>(null);
  const run = () =>
    startTransition(async () => {
      const r = await testConnectionAction();
      if (!("latencyMs" in r)) return setText({ ok: false, text: r.message });
      const trace = `traceID ${r.traceID ?? "none"}`;
      setText(
        r.ok
          ? { ok: true, text: `Connected in ${r.latencyMs} ms (${r.detail}, ${trace}).` }
          : { ok: false, text: `${r.message} (${r.latencyMs} ms, ${trace})` },
      );
    });
  return (
    <div className="space-y-2">
      <Button type="button" variant="secondary" onClick={run} disabled={pending}>
        {pending ? "Testing…" : "Test connection"}
      </Button>
      {text && (
        <Alert tone={text.ok ? "success" : "error"} testId="connection-result">
          {text.text}
        </Alert>
      )}
    </div>
  );
}
