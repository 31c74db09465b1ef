// What both engines share: the names of their built-in tools (stored in each turn's toolCalls,
// so a later turn can tell what an earlier one did). A cited article's link is the help pages'
// address (../help/urls.ts).

export const SEARCH_TOOL = "search_knowledge_base";
export const HANDOFF_TOOL = "request_human";
