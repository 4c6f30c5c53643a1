"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useActionResult } from "@/components/ui/action-button";
import type { MovementRow } from "@/lib/ledger/movements";
import { annotateMovementAction } from "@/lib/actions/statements";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";

const MOVEMENT_KINDS = ["topUp", "withdrawal", "adjustment"] as const;
const NOTE_FIELDS = ["reference", "note"] as const;
type MovementKind = (typeof MOVEMENT_KINDS)[number];
const isMovementKind = (kind: string | null): kind is MovementKind =>
  (MOVEMENT_KINDS as readonly (string | null)[]).includes(kind);

/** Movements outside operations; finance says what each was (top-up, withdrawal, adjustment). */
export function Movements({
  rows,
  mayAnnotate,
  timeZone,
}: {
  rows: MovementRow[];
  mayAnnotate: boolean;
  timeZone: string;
}) {
  const t = useTranslations("balance.movements");
  const words = useTranslations("statements.document");
  const locale = useLocale();
  if (rows.length === 0) return null;
  const when = (iso: string) => formatDateTime(new Date(iso), timeZone, locale);
  return (
    <section className="space-y-2" data-testid="outside-movements">
      <h2 className="text-lg font-semibold">{words("outside")}</h2>
      <ul className="space-y-2 text-sm">
        {rows.map((m) => (
          <li key={m.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
            <p>
              {t("line", {
                amount: exactAmount(m.amount, locale),
                currency: m.currency,
                from: m.windowFrom ? when(m.windowFrom) : t("theStart"),
                to: when(m.windowTo),
              })}
              {" · "}
              {isMovementKind(m.kind) ? words(`movementKinds.${m.kind}`) : (m.kind ?? t("notAnnotated"))}
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
  const t = useTranslations("statements.movement");
  const words = useTranslations("statements.document");
  const router = useRouter();
  const { pending, result: message, run } = useActionResult<string>();
  return (
    <form
      className="mt-1 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        run(async () => {
          const result = await annotateMovementAction({
            id: row.id,
            kind: data.get("kind"),
            reference: data.get("reference"),
            note: data.get("note"),
          });
          if (result.ok) router.refresh();
          return result.ok ? t("saved") : result.message;
        });
      }}
    >
      <select
        name="kind"
        defaultValue={row.kind ?? "topUp"}
        aria-label={t("kind")}
        className="rounded border px-1"
      >
        {MOVEMENT_KINDS.map((k) => (
          <option key={k} value={k}>
            {words(`movementKinds.${k}`)}
          </option>
        ))}
      </select>
      {NOTE_FIELDS.map((field) => (
        <input
          key={field}
          name={field}
          defaultValue={row[field] ?? ""}
          placeholder={t(field)}
          aria-label={t(field)}
          className="rounded border px-1"
        />
      ))}
      <button type="submit" disabled={pending} className="rounded bg-indigo-600 px-2 text-white">
        {t("save")}
      </button>
      {message && <span role="status">{message}</span>}
    </form>
  );
}
