"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { roles, type Role } from "@/lib/auth/permissions";
import { saveSettingAction } from "@/lib/actions/settings";
import { useStepUp } from "./step-up";

/** The roles that must use two-factor sign-in (the `twoFactorRequiredRoles` setting). */
export function RequiredRolesForm({ initial }: { initial: Role[] }) {
  const t = useTranslations("twoFactor.policy");
  const roleName = useTranslations("shell.roles");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [chosen, setChosen] = useState<Role[]>(initial);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const save = () =>
    startTransition(async () => {
      const r = await withStepUp(() => saveSettingAction({ key: "twoFactorRequiredRoles", value: chosen }));
      setResult(r.ok ? { ok: true, text: t("saved") } : { ok: false, text: r.message });
      if (r.ok) router.refresh();
    });
  return (
    <form
      className="space-y-2"
      data-testid="setting-twoFactorRequiredRoles"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">{t("requiredRoles")}</legend>
        <p className="text-xs text-zinc-500">{t("requiredRolesHint")}</p>
        <div className="flex flex-wrap gap-4 pt-1">
          {roles.map((role) => (
            <label key={role} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="role"
                value={role}
                checked={chosen.includes(role)}
                onChange={(e) =>
                  setChosen((current) =>
                    e.target.checked ? [...current, role] : current.filter((r) => r !== role),
                  )
                }
                className="h-4 w-4"
              />
              {roleName(role)}
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {t("save")}
      </Button>
      {result && <Alert tone={result.ok ? "success" : "error"}>{result.text}</Alert>}
    </form>
  );
}
