// The shape of the catalogs, from the English files: next-intl checks every key against it at compile
// time. A new namespace file in messages/en/ gets a line here (and its twin in messages/ru/).
import type common from "@/messages/en/common.json";
import type shell from "@/messages/en/shell.json";
import type twoFactor from "@/messages/en/twoFactor.json";

export type CatalogMessages = {
  common: typeof common;
  shell: typeof shell;
  twoFactor: typeof twoFactor;
};
