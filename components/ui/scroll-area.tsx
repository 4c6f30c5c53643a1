import type { ReactNode } from "react";

/**
 * A box that scrolls when its content is wider (or taller) than the screen: a table on a narrow screen,
 * a JSON body. It is a named region in the tab order, so that a keyboard user can scroll it with the
 * arrow keys and a screen reader says what it holds (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollArea({
  label,
  className = "overflow-x-auto",
  children,
}: {
  /** what the box holds, in the user's language (usually the heading above it) */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`${className} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600`}
    >
      {children}
    </div>
  );
}
