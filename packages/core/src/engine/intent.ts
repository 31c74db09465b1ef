// What a visitor's message asks for before any search: a person, a greeting, a thank-you.

// Who the visitor may ask for, and the words that may stand before it ("a real support person").
const HUMAN = String.raw`(?:human(?:\s+being)?|person|people|someone|somebody|anyone|anybody|representative|rep|operator|agent|staff|support|team|advisor|specialist)`;
const HUMAN_QUALIFIERS = String.raw`(?:(?:a|an|the|your|some|one|of|real|live|actual|human|support|customer|service|sales|technical|tech|team)\s+)*`;

/**
 * Requests for a person, in one place. Deliberately phrased around "to/with <person>" so that
 * questions about the product ("how do I connect my agent to Slack?") do not trigger a handoff.
 */
export const HANDOFF_PATTERNS: readonly RegExp[] = [
  // "talk to a human", "can I speak with someone", "connect me to an agent", "speak to support staff"
  new RegExp(
    String.raw`\b(?:talk|speak|chat|connect|transfer|put|pass|hand|escalate)\b(?:\s+(?:me|this|it|us|my\s+(?:case|question|issue)))?(?:\s+(?:over|through|back|on))?\s+(?:to|with)\s+${HUMAN_QUALIFIERS}${HUMAN}s?\b`,
    "i",
  ),
  // "I want a human", "I need a real person", "I'd like a representative"
  /\b(?:want|need|like|prefer|request|get\s+me)\s+(?:a|an|to\s+have\s+a)?\s*(?:real\s+|live\s+|actual\s+)?(?:human|person|representative|operator|live\s+agent)\b/i,
  // "a real person", "live agent", "actual human"
  /\b(?:real|live|actual)\s+(?:person|human|agent|people)\b/i,
  // "representative", "operator!", "human please"
  /\brepresentative\b/i,
  /^\W*(?:(?:a|an)\s+)?(?:human|person|agent|someone|operator)(?:\s+please)?\W*$/i,
  /\b(?:human|person|agent|operator)\s+please\b/i,
];

export function asksForHuman(message: string): boolean {
  return HANDOFF_PATTERNS.some((pattern) => pattern.test(message));
}

const GREETING = /^\W*(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening))(?:\s+(?:there|again|all|team))?\W*$/i;
const THANKS =
  /^\W*(?:thanks|thank\s+you|thx|ty|cheers|great|perfect|ok(?:ay)?|got\s+it)(?:\s+(?:so|very)\s+much)?(?:\s*,?\s*(?:thanks|thank\s+you))?(?:\s+for\s+(?:your|the|all\s+the)\s+help)?\W*$/i;

/** The whole message is a greeting ("hi there", "good morning"). */
export function isGreeting(message: string): boolean {
  return GREETING.test(message);
}

/** The whole message is a thank-you or an acknowledgement ("thanks so much", "got it"). */
export function isThanks(message: string): boolean {
  return THANKS.test(message);
}
