/** Waits; functions that slow down on purpose take it as a parameter so that tests need not wait. */
export type Wait = (ms: number) => Promise<void>;

export const sleep: Wait = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));
