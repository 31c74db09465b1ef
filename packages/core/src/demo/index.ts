// The demo data (data.ts, articles/) and the seed that writes it: `npm run db:seed`, the first
// `npm start`, and the tests that start from the demo workspace.
export { type SeedOptions, type SeedResult, seed } from "./seed.ts";
