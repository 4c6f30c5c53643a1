import { useLocale, useTimeZone, useTranslations } from "next-intl";
import type { ExportFormat } from "@/lib/statements/document";
import type { IssuedRow } from "@/lib/statements/issued-list";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";

const DOWNLOAD_FORMATS = ["xlsx", "pdf", "csv"] as const satisfies readonly ExportFormat[];

/** Issued statements with their downloads; a superseded one lists what changed since. */
export function IssuedList({ statements }: { statements: IssuedRow[] }) {
  const t = useTranslations("statements");
  const locale = useLocale();
  const zone = useTimeZone() ?? "UTC";
  const when = (iso: string, tz = zone) => formatDateTime(new Date(iso), tz, locale);
  const kind = (k: string) =>
    t.has(`document.kinds.${k}` as "document.title") ? t(`document.kinds.${k}` as "document.title") : k;
  return (
    <section className="space-y-2" data-testid="issued-statements">
      <h2 className="text-lg font-semibold">{t("issued.title")}</h2>
      {statements.length === 0 && <p className="text-sm text-zinc-500">{t("issued.none")}</p>}
      <ul className="space-y-2 text-sm">
        {statements.map((s) => (
          <li key={s.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
            <p>
              {when(s.from, s.tz)} — {when(s.to, s.tz)} ({s.tz}) · {t("document.closing")}{" "}
              <span className="font-mono">{s.closing ? exactAmount(s.closing, locale) : "—"}</span> ·{" "}
              {t("document.issuedBy")} {s.automatic ? t("issued.automaticIssuer") : s.issuedBy}{" "}
              {s.automatic ? t("issued.automatic") : ""} · {when(s.issuedAt)}
              {s.supersededAt && (
                <span className="ml-2 rounded bg-amber-100 px-1 text-amber-900" data-testid="superseded">
                  {t("issued.superseded", { at: when(s.supersededAt) })}
                </span>
              )}
            </p>
            <p className="text-xs text-zinc-500">
              {t("document.contentHash")} <span className="break-all font-mono">{s.contentHash}</span> ·{" "}
              {DOWNLOAD_FORMATS.map((f) => (
                <a key={f} href={`/api/statements/issued/${s.id}?format=${f}`} className="mr-2 underline">
                  {f.toUpperCase()}
                </a>
              ))}
            </p>
            {s.changes?.figures?.map((f) => (
              <p
                key={f.figure}
                className="text-xs text-amber-900 dark:text-amber-200"
                data-testid="superseded-figure"
              >
                {t(`issued.figureChanged.${f.figure}`, {
                  before: f.before ? exactAmount(f.before, locale) : "—",
                  now: exactAmount(f.now, locale),
                })}
              </p>
            ))}
            {s.changes && s.changes.total > 0 && (
              <details>
                <summary className="cursor-pointer text-xs">
                  {t("issued.changes", { count: s.changes.total })}
                </summary>
                <ul className="font-mono text-xs">
                  {s.changes.listed.map((c) => (
                    <li key={`${c.key}-${c.kind}`}>
                      {t.has(`issued.change.${c.change}` as "issued.change.added")
                        ? t(`issued.change.${c.change}` as "issued.change.added")
                        : c.change}{" "}
                      {kind(c.kind)} {when(c.at)} {exactAmount(c.amount, locale)} ({c.key})
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
