// Browser bundles import this first: zod's JIT probes `new Function("")` once, and the strict CSP
// (no 'unsafe-eval') reports that as a violation on every page that loads a schema. The panel's and
// help centre's schemas are small, so zod's interpreter is fast enough there.
import { z } from "zod";

z.config({ jitless: true });
