import Link from "next/link";
import { useTranslations } from "next-intl";

const link =
  "rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** Newer / older links by keyset cursor (no page numbers: every row stays reachable while data moves). */
export function Pagination({
  params,
  prevCursor,
  nextCursor,
}: {
  params: URLSearchParams;
  prevCursor: string | null;
  nextCursor: string | null;
}) {
  const t = useTranslations("operations.pagination");
  const to = (key: "after" | "before" | null, cursor: string | null) => {
    const p = new URLSearchParams(params);
    p.delete("after");
    p.delete("before");
    if (key && cursor) p.set(key, cursor);
    const q = p.toString();
    return q ? `/operations?${q}` : "/operations";
  };
  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center gap-2">
      {prevCursor && (
        <>
          <Link href={to(null, null)} className={link}>
            {t("first")}
          </Link>
          <Link href={to("before", prevCursor)} className={link} rel="prev">
            {t("newer")}
          </Link>
        </>
      )}
      {nextCursor && (
        <Link href={to("after", nextCursor)} className={link} rel="next">
          {t("older")}
        </Link>
      )}
    </nav>
  );
}
