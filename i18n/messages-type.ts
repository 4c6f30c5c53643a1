// The shape of the catalogs, from the English files: next-intl checks every key against it at compile
// time. A new namespace file in messages/en/ gets a line here (and its twin in messages/ru/).
import type common from "@/messages/en/common.json";
import type payins from "@/messages/en/payins.json";
import type payouts from "@/messages/en/payouts.json";
import type platformErrors from "@/messages/en/platformErrors.json";
import type recipients from "@/messages/en/recipients.json";
import type shell from "@/messages/en/shell.json";
import type validation from "@/messages/en/validation.json";

export type CatalogMessages = {
  common: typeof common;
  payins: typeof payins;
  payouts: typeof payouts;
  platformErrors: typeof platformErrors;
  recipients: typeof recipients;
  shell: typeof shell;
  validation: typeof validation;
};
