// Imported first by main.tsx. zod 4 probes `new Function("")` to decide whether to compile its parsers, and
// under our CSP (script-src 'self', no 'unsafe-eval') that probe is reported as a securitypolicyviolation
// even though zod catches the throw. zod reads this global config object when it loads, so setting it here
// (without importing zod into the entry chunk) turns the JIT and the probe off in the browser.
const g = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };

export {};
