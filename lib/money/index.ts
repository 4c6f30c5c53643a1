export * from "./decimal";
export * from "./format";
