import { z } from 'zod';

// zod 4 probes `new Function` to decide whether to compile validators; under our CSP (no eval, Trusted Types)
// that probe is a violation report on every page. Tell it not to try.
z.config({ jitless: true });
