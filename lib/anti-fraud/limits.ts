// Length limits of the anti-fraud fields, without the schemas (zod), for forms in the browser.
export const CLIENT_DATA_LIMITS = { clientID: 128, clientIP: 64, clientDateCreated: 40 } as const;
