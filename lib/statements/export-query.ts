import { z } from "zod";
import { exportFormats } from "@/lib/statements/document";
import { periodQuerySchema } from "@/lib/statements/periods";

export const exportQuerySchema = periodQuerySchema.extend({ format: z.enum(exportFormats) });
