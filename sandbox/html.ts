/** Minimal server-rendered HTML: every interpolated value goes through escapeHtml. */

export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1b1b1f}
table{border-collapse:collapse;width:100%;font-size:.85rem}th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}button{margin:0 .15rem;cursor:pointer}
.card{border:1px solid #ccc;border-radius:8px;padding:1.25rem;max-width:28rem}.muted{color:#666}.error{color:#b00020}
code{background:#f3f3f5;padding:.1rem .3rem;border-radius:4px}
</style></head><body>${body}</body></html>`;
}
