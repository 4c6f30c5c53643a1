// The shape of the catalogs, from the English files: next-intl checks every key against it at compile
// time. A new namespace file in messages/en/ gets a line here (and its twin in messages/ru/).
import type admin from "@/messages/en/admin.json";
import type audit from "@/messages/en/audit.json";
import type auth from "@/messages/en/auth.json";
import type balance from "@/messages/en/balance.json";
import type common from "@/messages/en/common.json";
import type errors from "@/messages/en/errors.json";
import type reconciliation from "@/messages/en/reconciliation.json";
import type settings from "@/messages/en/settings.json";
import type shell from "@/messages/en/shell.json";
import type statements from "@/messages/en/statements.json";

export type CatalogMessages = {
  common: typeof common;
  shell: typeof shell;
  admin: typeof admin;
  audit: typeof audit;
  auth: typeof auth;
  balance: typeof balance;
  errors: typeof errors;
  reconciliation: typeof reconciliation;
  settings: typeof settings;
  statements: typeof statements;
};
