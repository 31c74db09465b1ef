// What a visitor's message asks for before any search: a person, a greeting, a thank-you, in
// English, Spanish, French, German and Portuguese. The other languages' patterns read the message
// folded (lower case, no accents), so "hablar con alguien" and "Falar com alguém" both match.
import { fold } from "../knowledge/search/analyze.ts";

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

// Folded text. "to/with <a person>" as in English, and the words for a person that only mean one.
const OTHER_LANGUAGE_HANDOFF: readonly RegExp[] = [
  // es: "hablar con una persona", "quiero un agente humano", "pásame con alguien"
  /\b(?:hablar|habla|comunicarme|contactar|chatear|pasame|pasar|ponme|transferir|transfiereme)\s+(?:con|a)\s+(?:(?:una|un|el|la|alguna|algun|de)\s+)?(?:persona|humano|alguien|agente|operador|representante|asesor|empleado|soporte|equipo)\b/,
  /\b(?:persona|agente|humano)\s+(?:real|humano|de verdad)\b/,
  // fr: "parler à un humain", "je veux un conseiller", "une vraie personne"
  /\b(?:parler|discuter|echanger|passer|mettre|transferer)\s+(?:moi\s+)?(?:a|avec|en relation avec)\s+(?:(?:une|un|le|la|votre)\s+)?(?:personne|humain|conseiller|conseillere|agent|operateur|representant|support|equipe|quelquun)\b/,
  /\b(?:vrai|vraie|veritable)\s+(?:personne|humain|conseiller)\b/,
  /\b(?:veux|voudrais|souhaite)\s+(?:un|une)\s+(?:humain|conseiller|conseillere|operateur|personne)\b/,
  // de: "mit einem Menschen sprechen", "einen Mitarbeiter bitte", "echte Person"
  /\bmit\s+(?:(?:einem|einer|jemandem|dem|der|ihrem|einem echten|einer echten)\s+)?(?:mensch|menschen|person|jemandem|mitarbeiter|mitarbeiterin|berater|beraterin|support|kundendienst|team)\s+(?:sprechen|reden|chatten|verbinden)\b/,
  /\b(?:echte[nmr]?|richtige[nmr]?)\s+(?:mensch|menschen|person|mitarbeiter)\b/,
  /\b(?:verbinden sie mich|ich mochte einen (?:menschen|mitarbeiter|berater))\b/,
  // pt: "falar com uma pessoa", "quero um atendente", "pessoa de verdade"
  /\b(?:falar|conversar|fala|passar|transferir|transfere)\s+(?:com|para|pra)\s+(?:(?:uma|um|o|a|alguem de)\s+)?(?:pessoa|humano|alguem|atendente|agente|operador|representante|suporte|equipe)\b/,
  /\b(?:quero|preciso de)\s+(?:um|uma)\s+(?:atendente|humano|pessoa)\b/,
  /\b(?:pessoa|atendente|humano)\s+(?:real|de verdade)\b/,
];

export function asksForHuman(message: string): boolean {
  if (HANDOFF_PATTERNS.some((pattern) => pattern.test(message))) return true;
  const folded = fold(message);
  return OTHER_LANGUAGE_HANDOFF.some((pattern) => pattern.test(folded));
}

const GREETING =
  /^\W*(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening)|hola|buenas|buenos\s+dias|buenas\s+(?:tardes|noches)|bonjour|bonsoir|salut|coucou|hallo|guten\s+(?:tag|morgen|abend)|servus|moin|gruss\s+gott|ola|oi|bom\s+dia|boa\s+(?:tarde|noite))(?:\s+(?:there|again|all|team|a\s+todos|equipo|tout\s+le\s+monde|zusammen|pessoal))?\W*$/i;
// "How are you?", "who am I talking to?", "are you a bot?": small talk a greeting answers.
const SMALL_TALK =
  /^\W*(?:(?:hi|hello|hey)\W+)?(?:how\s+are\s+you(?:\s+doing)?(?:\s+today)?|how\s+is\s+it\s+going|whats\s+up|who\s+am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with)|who\s+are\s+you|are\s+you\s+(?:a\s+)?(?:bot|robot|human|real|ai)|que\s+tal|como\s+estas|comment\s+(?:ca\s+va|allez\s+vous)|ca\s+va|wie\s+geht\s+(?:es|s)(?:\s+(?:dir|ihnen))?|tudo\s+bem|como\s+vai(?:\s+voce)?)\W*$/;
const THANK_YOU = String.raw`(?:thanks|thank\s+you|thx|ty|cheers|great|perfect|ok(?:ay)?|got\s+it)(?:\s+(?:so|very)\s+much)?(?:\s*,?\s*(?:thanks|thank\s+you))?(?:\s+for\s+(?:your|the|all\s+the)\s+help)?`;
// "that helped", "it worked", "that did the trick": the answer was enough.
const IT_WORKED = String.raw`(?:that|this|it)(?:\s+(?:really|totally|finally))?\s+(?:helped|helps|worked|works|did\s+the\s+trick|solved\s+it|fixed\s+it|answers\s+it)(?:\s+(?:a\s+lot|perfectly))?`;
const THANKS = new RegExp(String.raw`^\W*(?:${THANK_YOU}(?:\W+${IT_WORKED})?|${IT_WORKED}(?:\W+${THANK_YOU})?)\W*$`, "i");
// Folded: "muchas gracias", "merci beaucoup", "vielen Dank", "obrigado pela ajuda".
const OTHER_LANGUAGE_THANKS =
  /^\W*(?:(?:muchas\s+)?gracias(?:\s+por\s+(?:tu|su|la)\s+ayuda)?|merci(?:\s+beaucoup|\s+bien)?(?:\s+pour\s+(?:votre|ton|l)\s*aide)?|(?:vielen\s+)?dank(?:e)?(?:\s+(?:schon|sehr))?(?:\s+fur\s+(?:ihre|deine|die)\s+hilfe)?|(?:muito\s+)?obrigad[oa](?:\s+pela\s+ajuda)?|valeu|perfecto|parfait|super|perfeito|(?:ok(?:ay)?\s+)?(?:cool|nice|awesome|good|alright|sounds\s+good|vale|genial|dacord|daccord|gut|alles\s+klar|beleza|legal))\W*$/;

/** The whole message is a greeting ("hi there", "good morning"). */
export function isGreeting(message: string): boolean {
  const folded = fold(message);
  return GREETING.test(folded) || SMALL_TALK.test(folded);
}

/** The whole message is a thank-you or an acknowledgement ("thanks so much", "got it"). */
export function isThanks(message: string): boolean {
  return THANKS.test(message) || OTHER_LANGUAGE_THANKS.test(fold(message));
}
