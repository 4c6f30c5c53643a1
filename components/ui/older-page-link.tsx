import Link from "next/link";

/** The link to a list's next, older page; nothing on the last page. */
export function OlderPageLink({ href, label }: { href: string | null; label: string }) {
  if (!href) return null;
  return (
    <Link href={href} className="text-sm underline">
      {label}
    </Link>
  );
}
