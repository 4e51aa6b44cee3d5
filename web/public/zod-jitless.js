// zod 4 probes `new Function` to decide whether to compile validators; under our CSP (no eval, Trusted Types)
// that probe is a violation report. zod reads its global config from here when it loads. A classic script of its
// own, because it must run before every module of the bundle, and page chunks evaluate the schemas they share
// before the entry module's own first import (web/src/app/lazy-page.tsx).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
