import { createServer, type Server } from "node:http";
import { handleApi } from "./api-router";
import { handleControl } from "./controls";
import { sendJson } from "./http";
import { handlePage } from "./pages";
import type { Platform } from "./platform";

/** One port for everything: the Merchant API, the /__sandbox/ controls and the hosted pages. */
export function createSandboxServer(platform: Platform, baseUrl: () => string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox.local");
    const route = (): Promise<void> => {
      if (url.pathname === "/__sandbox" || url.pathname.startsWith("/__sandbox/"))
        return handleControl(platform, req, res, url);
      if (url.pathname.startsWith("/payment/") || url.pathname.startsWith("/3ds/"))
        return handlePage(platform, req, res, url);
      return handleApi(platform, req, res, url.pathname, baseUrl());
    };
    route().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, 500, {
        error: "sandbox internal error",
        details: error instanceof Error ? error.message : String(error),
      });
    });
  });
}
