// The panel's home: what needs a person now, activity, gaps, limits.
export { panelHome } from "./home.ts";
export { homeOperations } from "./home-operations.ts";
