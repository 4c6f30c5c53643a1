import { config } from "zod/v4/core";

// Runs in the browser before the app. Zod otherwise probes whether it may compile validators with
// `new Function`; under the Content-Security-Policy (no 'unsafe-eval') the probe fails harmlessly but
// the browser still reports a CSP violation. Validation in the browser works the same without it.
config({ jitless: true });
