import type { SelectHTMLAttributes } from "react";
import { controlClass, labelledControl } from "@/components/ui/labelled";

/** A labelled select whose errors are announced through aria-describedby. */
export const Select = labelledControl<SelectHTMLAttributes<HTMLSelectElement>>((a11y, select) => (
  <select {...a11y} className={controlClass} {...select} />
));
