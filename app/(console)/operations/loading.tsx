import { useTranslations } from "next-intl";

export default function OperationsLoading() {
  const t = useTranslations("operations");
  return (
    <section className="space-y-4" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="text-sm text-zinc-500">{t("loading")}</p>
    </section>
  );
}
