import { StepUpProvider } from "@/components/auth/two-factor/step-up";
import { Providers } from "@/components/providers";
import { ConsoleHeader } from "@/components/shell/console-header";
import { navFor } from "@/lib/auth/navigation";
import { requireSignedIn } from "@/lib/auth/session";
import { getEnv, platformLabel } from "@/lib/env";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireSignedIn();
  return (
    <div className="min-h-screen">
      <ConsoleHeader
        nav={navFor(user.role)}
        environment={platformLabel(getEnv().PLATFORM_BASE_URL)}
        user={user}
      />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <Providers>
          <StepUpProvider>{children}</StepUpProvider>
        </Providers>
      </main>
    </div>
  );
}
