// A table or body that scrolls sideways must be reachable from the keyboard (axe's
// scrollable-region-focusable, WCAG 2.1.1): the console's scrolling boxes are named regions in the tab order.
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataRow, DataTable } from "@/components/ui/data-table";
import { ScrollArea } from "@/components/ui/scroll-area";

describe("scrolling boxes", () => {
  // children go in createElement's own argument (react/no-children-prop), hence the props' casts
  it("are named regions a keyboard can focus", () => {
    const props = { label: "Заголовки" } as ComponentProps<typeof ScrollArea>;
    const html = renderToStaticMarkup(createElement(ScrollArea, props, "{}"));
    expect(html).toMatch(/^<div role="region" aria-label="Заголовки" tabindex="0" class="overflow-x-auto /);
  });

  it("wrap every data table, named by its heading", () => {
    const props = {
      testId: "runs-table",
      label: "Runs",
      headers: ["When"] as readonly string[],
    } as ComponentProps<typeof DataTable>;
    const html = renderToStaticMarkup(createElement(DataTable, props, createElement(DataRow, null, null)));
    expect(html).toMatch(/^<div role="region" aria-label="Runs" tabindex="0"[^>]*><table /);
  });
});
