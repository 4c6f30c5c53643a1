import type { IncomingMessage, ServerResponse } from "node:http";
import { selectFormMethod } from "./creation";
import { escapeHtml, layout } from "./html";
import { readBody, redirect, sendHtml } from "./http";
import { nextStatuses } from "./lifecycle";
import { currencyOfMethod } from "./methods";
import type { Platform } from "./platform";
import type { Operation } from "./types";

/** HTML pages: the control page (/__sandbox/), the hosted payment form (/payment/<id>) and the 3-D Secure stand-in (/3ds/<id>). */

export function controlPage(platform: Platform, merchantId: string): string {
  const merchants = [...platform.state.merchants.values()];
  const merchant = platform.state.merchant(merchantId) ?? merchants[0];
  if (merchant === undefined) return layout("Sandbox", "<p>No merchants.</p>");
  const tabs = merchants
    .map((m) =>
      m === merchant
        ? `<strong>${escapeHtml(m.settings.id)}</strong>`
        : `<a href="?merchant=${encodeURIComponent(m.settings.id)}">${escapeHtml(m.settings.id)}</a>`,
    )
    .join(" · ");
  const rows = merchant.operations
    .slice(-100)
    .reverse()
    .map((op) => {
      const buttons = nextStatuses(op)
        .map(
          (status) =>
            `<button data-id="${escapeHtml(op.id)}" data-status="${escapeHtml(status)}">${escapeHtml(status)}</button>`,
        )
        .join("");
      return `<tr><td><code>${escapeHtml(op.id.slice(0, 8))}</code></td><td>${escapeHtml(new Date(op.dateAdded).toISOString())}</td><td>${escapeHtml(op.typeOperation)}</td><td>${escapeHtml(op.paymentMethod ?? "—")}</td><td>${escapeHtml(op.idTransactionMerchant)}</td><td class="num">${escapeHtml(op.amount)} ${escapeHtml(op.currency)}</td><td>${escapeHtml(op.status)}</td><td>${buttons}</td></tr>`;
    })
    .join("");
  const script = `<script>
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-id]");
  if (!button) return;
  button.disabled = true;
  const res = await fetch("/__sandbox/operations/" + button.dataset.id + "/status", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: button.dataset.status }) });
  if (!res.ok) alert((await res.json()).error);
  location.reload();
});
</script>`;
  return layout(
    "Paydesk sandbox",
    `<h1>Paydesk sandbox</h1><p>Merchant: ${tabs}</p>
<p class="muted">Balance ${escapeHtml(merchant.available.toFixed(4))} ${escapeHtml(merchant.settings.balanceCurrency)} (reserved ${escapeHtml(merchant.reserved.toFixed(4))}), ${merchant.operations.length} operations. Latest 100:</p>
<table><thead><tr><th>id</th><th>dateAdded</th><th>type</th><th>method</th><th>idTransactionMerchant</th><th>amount</th><th>status</th><th>move to</th></tr></thead><tbody>${rows}</tbody></table>${script}`,
  );
}

function backLinks(op: Operation): string {
  const form = op.form;
  if (form === null) return "";
  const target =
    op.status === "success" ? form.redirectSuccessURL : op.status === "failed" ? form.redirectFailURL : null;
  const url = target ?? form.redirectGeneralURL;
  return url === null ? "" : `<p><a href="${escapeHtml(url)}">Return to the shop</a></p>`;
}

function detailsBlock(op: Operation): string {
  const details = op.details;
  if (details === null) return "";
  return `<dl><dt>Method</dt><dd>${escapeHtml(details.paymentMethod)}</dd><dt>Bank</dt><dd>${escapeHtml(details.bankName)}</dd>
<dt>Recipient</dt><dd>${escapeHtml(details.nameMediator)}</dd><dt>Transfer to</dt><dd><code>${escapeHtml(details.number)}</code></dd></dl>
<p class="muted">Transfer exactly ${escapeHtml(op.amount)} ${escapeHtml(op.currency)}. These details are valid for this payment only.</p>`;
}

function paymentPage(platform: Platform, op: Operation, error: string | null): string {
  const heading = `<h1>Payment ${escapeHtml(op.amount)} ${escapeHtml(op.currency)}</h1><p class="muted">Order ${escapeHtml(op.idTransactionMerchant)} · status <strong>${escapeHtml(op.status)}</strong></p>`;
  const problem = error === null ? "" : `<p class="error">${escapeHtml(error)}</p>`;
  if (op.status !== "precreated")
    return layout("Payment", `<div class="card">${heading}${detailsBlock(op)}${backLinks(op)}</div>`);
  const merchant = platform.state.requireMerchant(op.merchantId);
  const methods = merchant.settings.tariff.payIn.filter(
    (method) => currencyOfMethod(method, merchant.settings.paymentCurrency) === op.currency,
  );
  const choices = methods
    .map(
      (method) =>
        `<label><input type="radio" name="method" value="${escapeHtml(method)}" required> ${escapeHtml(method)} <span class="muted">(${merchant.pools.freeCount(method)} free)</span></label><br>`,
    )
    .join("");
  return layout(
    "Choose a payment method",
    `<div class="card">${heading}${problem}<form method="post" action="/payment/${escapeHtml(op.id)}/select">${choices}<p><button type="submit">Continue</button></p></form>${backLinks(op)}</div>`,
  );
}

function threeDsPage(op: Operation): string {
  const card = op.details === null ? "" : `<p>Card acquirer: ${escapeHtml(op.details.bankName)}</p>`;
  return layout(
    "3-D Secure",
    `<div class="card"><h1>3-D Secure (sandbox stand-in)</h1><p>Payment of ${escapeHtml(op.amount)} ${escapeHtml(op.currency)} for order ${escapeHtml(op.idTransactionMerchant)}.</p>${card}
<p class="muted">No code is checked here; the final status is set from the control page, as the platform's staff would.</p>${backLinks(op)}</div>`,
  );
}

/** GET /payment/<id>, POST /payment/<id>/select (form field `method`), GET /3ds/<id>. Public: no token. */
export async function handlePage(
  platform: Platform,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const match = /^\/(payment|3ds)\/([^/]+)(\/select)?\/?$/.exec(url.pathname);
  const op = match === null ? undefined : platform.state.operations.get((match[2] ?? "").toLowerCase());
  if (match === null || op === undefined || op.form === null) {
    sendHtml(res, 404, layout("Not found", "<p>This payment link is not valid.</p>"));
    return;
  }
  if (match[1] === "3ds") {
    sendHtml(res, 200, threeDsPage(op));
    return;
  }
  if (match[3] === undefined) {
    sendHtml(res, 200, paymentPage(platform, op, url.searchParams.get("error")));
    return;
  }
  if (req.method !== "POST") {
    sendHtml(res, 405, layout("Method not allowed", "<p>Use the form.</p>"));
    return;
  }
  const method = new URLSearchParams(await readBody(req)).get("method") ?? "";
  const selected = selectFormMethod(platform, op, method);
  redirect(
    res,
    selected.ok ? `/payment/${op.id}` : `/payment/${op.id}?error=${encodeURIComponent(selected.reason)}`,
  );
}
