// The limits of the engine's turns: history given to the agents, the knowledge agent's answers, the LLM agent.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** Earlier messages of a conversation given to the engine on each turn (the most recent ones). */
export const TURN_HISTORY_MESSAGES = 40;
/** Knowledge agent: articles retrieved per question (the best answers, the rest are related links). */
export const KNOWLEDGE_SEARCH_RESULTS = 3;
/**
 * Knowledge agent: longest passage quoted from the best article (whole sentences), in characters
 * of its words; the list markers and line breaks that keep the article's layout are not counted.
 */
export const KNOWLEDGE_ANSWER_MAX_CHARS = 600;

/** LLM agent: model calls per turn (tool results go back to the model), articles per search, article characters per tool result. */
export const LLM_MAX_STEPS = 4;
export const LLM_SEARCH_RESULTS = 3;
export const LLM_ARTICLE_CHARS = 1_500;
