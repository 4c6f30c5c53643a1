// The shape of the catalogs, from the English files: next-intl checks every key against it at compile
// time. A new namespace file in messages/en/ gets a line here (and its twin in messages/ru/).
import type admin from "@/messages/en/admin.json";
import type audit from "@/messages/en/audit.json";
import type auth from "@/messages/en/auth.json";
import type balance from "@/messages/en/balance.json";
import type common from "@/messages/en/common.json";
import type errors from "@/messages/en/errors.json";
import type home from "@/messages/en/home.json";
import type operations from "@/messages/en/operations.json";
import type payins from "@/messages/en/payins.json";
import type payouts from "@/messages/en/payouts.json";
import type platformErrors from "@/messages/en/platformErrors.json";
import type recipients from "@/messages/en/recipients.json";
import type reconciliation from "@/messages/en/reconciliation.json";
import type settings from "@/messages/en/settings.json";
import type shell from "@/messages/en/shell.json";
import type statements from "@/messages/en/statements.json";
import type statuses from "@/messages/en/statuses.json";
import type trace from "@/messages/en/trace.json";
import type twoFactor from "@/messages/en/twoFactor.json";
import type ui from "@/messages/en/ui.json";
import type validation from "@/messages/en/validation.json";
import type webhooks from "@/messages/en/webhooks.json";

export type CatalogMessages = {
  admin: typeof admin;
  audit: typeof audit;
  auth: typeof auth;
  balance: typeof balance;
  common: typeof common;
  errors: typeof errors;
  home: typeof home;
  operations: typeof operations;
  payins: typeof payins;
  payouts: typeof payouts;
  platformErrors: typeof platformErrors;
  recipients: typeof recipients;
  reconciliation: typeof reconciliation;
  settings: typeof settings;
  shell: typeof shell;
  statements: typeof statements;
  statuses: typeof statuses;
  trace: typeof trace;
  twoFactor: typeof twoFactor;
  ui: typeof ui;
  validation: typeof validation;
  webhooks: typeof webhooks;
};
