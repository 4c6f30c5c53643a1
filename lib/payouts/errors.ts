/**
 * Platform refusals of pay-outs in words (lib/platform/explain.ts). Each result carries a typed code
 * (the UI never matches message text), our explanation in the reader's language, the platform's own
 * message unchanged, and the traceID to give to the platform's support.
 */
import "server-only";
export {
  explainPlatformRefusal,
  fieldFromMessage,
  type ExplainedError,
  type PlatformErrorWords,
  type PlatformRefusal,
  type RefusalCode as PayoutErrorCode,
} from "@/lib/platform/explain";
export { platformErrorWords } from "./words";
