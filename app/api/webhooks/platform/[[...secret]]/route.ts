import { receiveWebhookRoute } from "@/lib/webhooks/route-receiver";

// The platform's webhook. `npm start` answers this path ahead of Next.js (lib/webhooks/http-receiver.ts,
// for speed); this route serves hosts that run Next.js alone. Both call the same receiveWebhook.
export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ secret?: string[] }> }) {
  return receiveWebhookRoute(request, (await context.params).secret);
}
