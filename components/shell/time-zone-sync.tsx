"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { setTimeZone } from "@/lib/actions/preferences";

/** A user with no saved zone gets the browser's, once; afterwards the saved one is used everywhere. */
export function TimeZoneSync({ saved }: { saved: string | null }) {
  const router = useRouter();
  useEffect(() => {
    if (saved) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!timeZone) return;
    void setTimeZone({ timeZone }).then((result) => {
      if (result.ok) router.refresh();
    });
  }, [saved, router]);
  return null;
}
