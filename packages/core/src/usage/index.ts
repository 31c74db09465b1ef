// Usage: monthly counters, quotas and the usage page.
export { usageMonth } from "./quotas.ts";
export { dailyUsage, dailyUsageInput, usageSummary } from "./usage.ts";
export { usageOperations } from "./usage-operations.ts";
