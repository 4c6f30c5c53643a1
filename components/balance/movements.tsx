"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { MovementRow } from "@/lib/ledger/movements";
import { annotateMovementAction } from "@/lib/actions/statements";
import { statementLabels as L } from "@/lib/statements/labels";

/** Movements outside operations; finance says what each was (top-up, withdrawal, adjustment). */
export function Movements({ rows, mayAnnotate }: { rows: MovementRow[]; mayAnnotate: boolean }) {
  if (rows.length === 0) return null;
  return (
    <section className="space-y-2" data-testid="outside-movements">
      <h2 className="text-lg font-semibold">{L.outside}</h2>
      <ul className="space-y-2 text-sm">
        {rows.map((m) => (
          <li key={m.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
            <p>
              <span className="font-mono">
                {m.amount} {m.currency}
              </span>{" "}
              between {m.windowFrom ?? "the start"} and {m.windowTo}
              {m.kind ? ` · ${L.movementKinds[m.kind] ?? m.kind}` : " · not annotated"}
              {m.reference ? ` · ${m.reference}` : ""}
              {m.note ? ` · ${m.note}` : ""}
            </p>
            {mayAnnotate && <AnnotateForm row={m} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AnnotateForm({ row }: { row: MovementRow }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      className="mt-1 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        start(async () => {
          const result = await annotateMovementAction({
            id: row.id,
            kind: data.get("kind"),
            reference: data.get("reference"),
            note: data.get("note"),
          });
          setMessage(result.ok ? "Saved." : result.message);
          if (result.ok) router.refresh();
        });
      }}
    >
      <select
        name="kind"
        defaultValue={row.kind ?? "topUp"}
        aria-label="Kind"
        className="rounded border px-1"
      >
        {Object.entries(L.movementKinds).map(([k, v]) => (
          <option key={k} value={k}>
            {v}
          </option>
        ))}
      </select>
      <input
        name="reference"
        defaultValue={row.reference ?? ""}
        placeholder="Reference"
        aria-label="Reference"
        className="rounded border px-1"
      />
      <input
        name="note"
        defaultValue={row.note ?? ""}
        placeholder="Note"
        aria-label="Note"
        className="rounded border px-1"
      />
      <button type="submit" disabled={pending} className="rounded bg-indigo-600 px-2 text-white">
        Save
      </button>
      {message && <span role="status">{message}</span>}
    </form>
  );
}
