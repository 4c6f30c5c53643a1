import "server-only";

/**
 * The Merchant API client. Every endpoint of the spec, typed; both envelope dialects; exact decimals;
 * a record per attempt; timeouts; retries for reads only. Configuration is explicit (no env reads).
 *
 * Every method takes an optional CallContext ({ actorUserId, operationId, signal }) for the record and
 * returns the platform's traceID with the data. Failures throw PlatformError (see errors.ts);
 * requests that cannot be sent as asked throw PlatformRequestError before anything is sent.
 */
import type { CallSite, NormalisedEnvelope } from "./envelope";
import { createTransport, expectOk, type CallContext, type TransportOptions } from "./http";
import {
  buildFullPaymentFormBody,
  buildListOperationsBody,
  buildPayInBody,
  buildPayOutBody,
  buildPreparePaymentFormBody,
  type FullPaymentFormRequest,
  type ListOperationsRequest,
  type PayInRequest,
  type PayOutRequest,
  type PreparePaymentFormRequest,
} from "./requests";
import { PlatformRequestError } from "./errors";
import {
  decodeBalance,
  decodeBanks,
  decodeOperation,
  decodeOperationList,
  decodeOperationPage,
  decodePaymentForm,
  platformIdSchema,
  SchemaMismatchError,
  type BalanceRecord,
  type Bank,
  type Operation,
  type PaymentFormResult,
  type UnreadableOperation,
} from "./schemas";
import type { WireObject } from "./wire";

/** The client's options: the transport's (every call goes through it), and the configured balance currency. */
export interface PlatformClientOptions extends TransportOptions {
  /**
   * The merchant's balance currency as configured (PLATFORM_BALANCE_CURRENCY), for GET /balance's
   * choice while the ledger knows none (see BalanceChoice). Optional.
   */
  balanceCurrency?: string;
}

export interface Traced {
  /** The platform's id of the request (null only if the platform sent none). */
  traceID: string | null;
}

export interface OperationResult extends Traced {
  operation: Operation;
}
export interface MaybeOperationResult extends Traced {
  /** null when the platform says no such operation exists for this merchant. */
  operation: Operation | null;
}
export interface OperationsResult extends Traced {
  operations: Operation[];
}
export interface OperationPage extends OperationsResult {
  totalNumberRecords: number;
  /**
   * The page's items that did not decode (an unknown status, an amount like "1,5"...): they count
   * towards the page's length for paging (skip), but are not in `operations`. Absent means none.
   */
  unreadable?: UnreadableOperation[];
}
export interface PaymentFormResponse extends Traced {
  form: PaymentFormResult;
}
export interface BalanceResult extends Traced {
  /** The merchant's balance record (see BalanceChoice). */
  balance: BalanceRecord;
  /** All records, should a deployment return several. */
  balances: BalanceRecord[];
}

/**
 * Which record of GET /balance is the merchant's balance. The spec returns one record; a deployment may
 * return a list. `currencyBalance`: the merchant's balance currency as Paydesk knows it (the ledger's,
 * lib/ledger/balance.ts), null before any balance was read. `configured`: the one set by
 * PLATFORM_BALANCE_CURRENCY (the client's `balanceCurrency` fills it when the caller does not).
 */
export interface BalanceChoice {
  currencyBalance: string | null;
  configured?: string | null;
}

/** The variable that names the balance currency, named in a refusal that needs it. */
const BALANCE_CURRENCY_VARIABLE = "PLATFORM_BALANCE_CURRENCY";

/**
 * The only record, or the one record of a list in the balance currency: the ledger's when it knows one,
 * else the configured one. When both are known and differ, the ledger's wins: the configured currency
 * only starts the ledger (its first snapshot), after which the ledger's currency is the one its sums and
 * the balance proof are kept in, and choosing by another would book another currency's figure into it.
 * A list with no such record, with several, or read with no currency known (neither the ledger's nor a
 * configured one) is refused (a protocol error, nothing returned to store): taking one record of it at
 * random would book another currency's figure into the ledger. The only record is kept whatever its
 * currency: the balance proof refuses to compare it with the ledger when its currency differs, and says
 * so (lib/ledger/proof.ts).
 */
export function chooseBalance(records: BalanceRecord[], choice: BalanceChoice): BalanceRecord {
  if (records.length === 1) return records[0]!;
  const currencyBalance = choice.currencyBalance ?? choice.configured ?? null;
  const matching = records.filter((r) => r.currencyBalance === currencyBalance);
  if (currencyBalance !== null && matching.length === 1) return matching[0]!;
  const currencies = records.map((r) => r.currencyBalance).join(", ");
  const source = choice.currencyBalance === null ? ` (${BALANCE_CURRENCY_VARIABLE})` : "";
  const why =
    currencyBalance === null
      ? `and no balance currency known yet to choose one by: set ${BALANCE_CURRENCY_VARIABLE} to choose`
      : matching.length === 0
        ? `and none in the balance currency ${currencyBalance}${source}`
        : `and ${matching.length} in the balance currency ${currencyBalance}${source}`;
  throw new SchemaMismatchError("balance", [
    {
      code: "custom",
      path: [],
      message: `${records.length} balance records (${currencies}) ${why}`,
      input: undefined,
    },
  ]);
}

export interface BanksResult extends Traced {
  banks: Bank[];
}

export interface PlatformClient {
  createPayIn(request: PayInRequest, context?: CallContext): Promise<OperationResult>;
  createPayOut(request: PayOutRequest, context?: CallContext): Promise<OperationResult>;
  preparePaymentForm(request: PreparePaymentFormRequest, context?: CallContext): Promise<PaymentFormResponse>;
  createFullPaymentForm(request: FullPaymentFormRequest, context?: CallContext): Promise<PaymentFormResponse>;
  getOperation(idPlatform: string, context?: CallContext): Promise<MaybeOperationResult>;
  /** Internal debugging endpoint of the platform (pay-ins only). */
  getPayInInternal(idPlatform: string, context?: CallContext): Promise<MaybeOperationResult>;
  /** DEPRECATED endpoint, planned for removal; ids are not unique across repeated registrations. */
  getOperationsByMerchantIdDeprecated(
    idTransactionMerchant: string,
    context?: CallContext,
  ): Promise<OperationsResult>;
  /**
   * Newest first. Paging ends when skip + returned >= totalNumberRecords, where returned counts the
   * unreadable items too. One item that does not decode does not fail the page (see `unreadable`).
   */
  listOperations(request: ListOperationsRequest, context?: CallContext): Promise<OperationPage>;
  /** The merchant's balance record, chosen by `choice` when the platform answers with several. */
  getBalance(context?: CallContext, choice?: BalanceChoice): Promise<BalanceResult>;
  getBanks(context?: CallContext): Promise<BanksResult>;
}

/** "Not found" on a by-id read: Warning + invalidRequestParameters per spec (or a *notFound code). */
function isNotFound(env: NormalisedEnvelope): boolean {
  if (env.ok) return false;
  const code = (env.codeError ?? "").toLowerCase();
  return code === "invalidrequestparameters" || code.includes("notfound");
}

function platformId(value: string): string {
  const parsed = platformIdSchema.safeParse(value);
  if (!parsed.success) throw new PlatformRequestError([{ field: "idPlatform", message: "expected a UUID" }]);
  return parsed.data;
}

function nonEmptyPathValue(value: string, field: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new PlatformRequestError([{ field, message: "required" }]);
  return encodeURIComponent(value);
}

/** A creation request: the merchant's id goes with the call record. */
type Created = { idTransactionMerchant: string };

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const transport = createTransport(options);

  /**
   * A by-id read: the operation asked for, or null when the platform has none by that id. An answer
   * about another operation is refused (a protocol error): every caller would write it into the mirror.
   */
  const operationById =
    (id: string) =>
    (env: NormalisedEnvelope, site: CallSite): Operation | null => {
      if (isNotFound(env)) return null;
      expectOk(env, site);
      if (env.data === null) return null;
      const operation = decodeOperation(env.data);
      if (operation.id !== id)
        throw new SchemaMismatchError("operation", [
          {
            code: "custom",
            path: ["id"],
            message: `expected ${id}, the operation asked for`,
            input: operation.id,
          },
        ]);
      return operation;
    };

  /** An answer that must be ok, its data read by `decodeData`. */
  const okData =
    <T>(decodeData: (data: NormalisedEnvelope["data"]) => T) =>
    (env: NormalisedEnvelope, site: CallSite): T => {
      expectOk(env, site);
      return decodeData(env.data);
    };
  const okOperation = okData(decodeOperation);
  const okForm = okData(decodePaymentForm);

  async function read<T>(
    path: string,
    decode: (env: NormalisedEnvelope, site: CallSite) => T,
    context?: CallContext,
  ) {
    const r = await transport.call({ method: "GET", path, idempotent: true, context, decode });
    return { value: r.value, traceID: r.envelope.traceID };
  }

  async function create<T>(
    path: string,
    body: WireObject,
    idTransactionMerchant: string,
    decode: (env: NormalisedEnvelope, site: CallSite) => T,
    context?: CallContext,
  ) {
    const r = await transport.call({
      method: "POST",
      path,
      body,
      idempotent: false,
      context,
      idTransactionMerchant,
      decode,
    });
    return { value: r.value, traceID: r.envelope.traceID };
  }

  async function createOperation(path: string, request: Created, body: WireObject, context?: CallContext) {
    const r = await create(path, body, request.idTransactionMerchant, okOperation, context);
    return { operation: r.value, traceID: r.traceID };
  }

  async function createForm(path: string, request: Created, body: WireObject, context?: CallContext) {
    const r = await create(path, body, request.idTransactionMerchant, okForm, context);
    return { form: r.value, traceID: r.traceID };
  }

  async function readById(
    pathPrefix: string,
    idPlatform: string,
    context?: CallContext,
  ): Promise<MaybeOperationResult> {
    const id = platformId(idPlatform);
    const r = await transport.call({
      method: "GET",
      path: `${pathPrefix}/${id}`,
      idempotent: true,
      context: { ...context, operationId: context?.operationId ?? id },
      decode: operationById(id),
    });
    return { operation: r.value, traceID: r.envelope.traceID };
  }

  return {
    createPayIn: async (request, context) =>
      createOperation("/host2host/payin", request, buildPayInBody(request), context),
    createPayOut: async (request, context) =>
      createOperation("/host2host/payout", request, buildPayOutBody(request), context),
    preparePaymentForm: async (request, context) =>
      createForm("/paymentform/prepare", request, buildPreparePaymentFormBody(request), context),
    createFullPaymentForm: async (request, context) =>
      createForm("/paymentform/full", request, buildFullPaymentFormBody(request), context),

    getOperation(idPlatform, context) {
      return readById("/operation/operation/platform", idPlatform, context);
    },

    getPayInInternal(idPlatform, context) {
      return readById("/operation/operation/platform/payin", idPlatform, context);
    },

    async getOperationsByMerchantIdDeprecated(idTransactionMerchant, context) {
      const segment = nonEmptyPathValue(idTransactionMerchant, "idTransactionMerchant");
      const r = await transport.call({
        method: "GET",
        path: `/operation/operation/merhcant/${segment}`,
        idempotent: true,
        context,
        idTransactionMerchant,
        decode: okData(decodeOperationList),
      });
      return { operations: r.value, traceID: r.envelope.traceID };
    },

    async listOperations(request, context) {
      const body = buildListOperationsBody(request);
      const r = await transport.call({
        method: "POST",
        path: "/operation/operation/list",
        body,
        idempotent: true,
        context,
        decode: (env, site) => {
          expectOk(env, site);
          const { operations, unreadable } = decodeOperationPage(env.data);
          if (env.totalNumberRecords === null) {
            // Paging depends on it: never guess.
            throw new SchemaMismatchError("operation list", [
              { code: "custom", path: ["totalNumberRecords"], message: "missing", input: undefined },
            ]);
          }
          return { operations, unreadable, totalNumberRecords: env.totalNumberRecords };
        },
      });
      return { ...r.value, traceID: r.envelope.traceID };
    },

    async getBalance(context, choice = { currencyBalance: null }) {
      const chosenBy: BalanceChoice = {
        currencyBalance: choice.currencyBalance,
        configured: choice.configured ?? options.balanceCurrency ?? null,
      };
      // Chosen in the decoding: a refused list is the call's error, in its record.
      const r = await read(
        "/balance",
        okData((data) => {
          const balances = decodeBalance(data);
          return { balance: chooseBalance(balances, chosenBy), balances };
        }),
        context,
      );
      return { ...r.value, traceID: r.traceID };
    },

    async getBanks(context) {
      const r = await read("/masterdata/bank/list", okData(decodeBanks), context);
      return { banks: r.value, traceID: r.traceID };
    },
  };
}
