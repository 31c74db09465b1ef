// The knowledge agent's fixed sentences in each language it speaks. Every "don't know" says so in
// the first person ("I don't know", "no lo sé", "je ne sais pas", "ich weiß es nicht", "não sei")
// so that a reader, or a program, can tell the agent did not answer.
import type { Language } from "../knowledge/languages/detection.ts";

export interface Phrases {
  /** "Hi Ada, " in front of the first answer to a visitor whose name is known. */
  hi: (name: string) => string;
  hello: string;
  helloName: (name: string) => string;
  welcome: string;
  handoff: string;
  dontKnow: string;
  dontKnowAgain: string;
  /** Introduces the quoted passage of an article. */
  from: (title: string) => string;
  /** Introduces a second article's passage when the question spans two. */
  alsoFrom: (title: string) => string;
  talkToPerson: string;
}

export const PHRASES: Record<Language, Phrases> = {
  en: {
    hi: (name) => `Hi ${name}, `,
    hello: "Hello! How can I help you today?",
    helloName: (name) => `Hi ${name}! How can I help you today?`,
    welcome: "You're welcome! Is there anything else I can help with?",
    handoff: "Of course. I've asked a person from our team to take over this conversation; they will follow up here.",
    dontKnow:
      "I'm sorry, I don't know the answer to that: I couldn't find it in our help articles. You can rephrase your question, or talk to a person.",
    dontKnowAgain:
      "I'm sorry, I couldn't find that in our help articles either. Would you like to talk to a person? Choose “Talk to a person” and someone from our team will follow up here.",
    from: (title) => `From “${title}”: `,
    alsoFrom: (title) => `Also, from “${title}”: `,
    talkToPerson: "Talk to a person",
  },
  es: {
    hi: (name) => `Hola ${name}, `,
    hello: "¡Hola! ¿En qué puedo ayudarte hoy?",
    helloName: (name) => `¡Hola ${name}! ¿En qué puedo ayudarte hoy?`,
    welcome: "¡De nada! ¿Hay algo más en lo que pueda ayudarte?",
    handoff: "Por supuesto. He pedido a una persona de nuestro equipo que continúe esta conversación; te responderá aquí.",
    dontKnow:
      "Lo siento, no lo sé: no he encontrado la respuesta en nuestros artículos de ayuda. Puedes reformular la pregunta o hablar con una persona.",
    dontKnowAgain:
      "Lo siento, tampoco he encontrado eso en nuestros artículos de ayuda. ¿Quieres hablar con una persona? Elige “Hablar con una persona” y alguien de nuestro equipo te responderá aquí.",
    from: (title) => `Según “${title}”: `,
    alsoFrom: (title) => `Además, según “${title}”: `,
    talkToPerson: "Hablar con una persona",
  },
  fr: {
    hi: (name) => `Bonjour ${name}, `,
    hello: "Bonjour ! Comment puis-je vous aider aujourd'hui ?",
    helloName: (name) => `Bonjour ${name} ! Comment puis-je vous aider aujourd'hui ?`,
    welcome: "Je vous en prie ! Puis-je vous aider pour autre chose ?",
    handoff: "Bien sûr. J'ai demandé à une personne de notre équipe de reprendre cette conversation ; elle vous répondra ici.",
    dontKnow:
      "Désolé, je ne sais pas : je n'ai pas trouvé la réponse dans nos articles d'aide. Vous pouvez reformuler votre question ou parler à une personne.",
    dontKnowAgain:
      "Désolé, je n'ai pas trouvé cela non plus dans nos articles d'aide. Voulez-vous parler à une personne ? Choisissez « Parler à une personne » et quelqu'un de notre équipe vous répondra ici.",
    from: (title) => `D'après « ${title} » : `,
    alsoFrom: (title) => `Et d'après « ${title} » : `,
    talkToPerson: "Parler à une personne",
  },
  de: {
    hi: (name) => `Hallo ${name}, `,
    hello: "Hallo! Wie kann ich Ihnen heute helfen?",
    helloName: (name) => `Hallo ${name}! Wie kann ich Ihnen heute helfen?`,
    welcome: "Gern geschehen! Kann ich Ihnen sonst noch helfen?",
    handoff: "Natürlich. Ich habe eine Person aus unserem Team gebeten, dieses Gespräch zu übernehmen; sie meldet sich hier.",
    dontKnow:
      "Es tut mir leid, das weiß ich nicht: Ich konnte dazu nichts in unseren Hilfeartikeln finden. Sie können Ihre Frage anders formulieren oder mit einer Person sprechen.",
    dontKnowAgain:
      "Es tut mir leid, auch dazu konnte ich nichts in unseren Hilfeartikeln finden. Möchten Sie mit einer Person sprechen? Wählen Sie „Mit einer Person sprechen“, und jemand aus unserem Team meldet sich hier.",
    from: (title) => `Aus „${title}“: `,
    alsoFrom: (title) => `Außerdem aus „${title}“: `,
    talkToPerson: "Mit einer Person sprechen",
  },
  pt: {
    hi: (name) => `Olá ${name}, `,
    hello: "Olá! Como posso ajudar hoje?",
    helloName: (name) => `Olá ${name}! Como posso ajudar hoje?`,
    welcome: "De nada! Posso ajudar em mais alguma coisa?",
    handoff: "Claro. Pedi a uma pessoa da nossa equipe para assumir esta conversa; ela responderá aqui.",
    dontKnow:
      "Desculpe, não sei: não encontrei a resposta nos nossos artigos de ajuda. Você pode reformular a pergunta ou falar com uma pessoa.",
    dontKnowAgain:
      "Desculpe, também não encontrei isso nos nossos artigos de ajuda. Quer falar com uma pessoa? Escolha “Falar com uma pessoa” e alguém da nossa equipe responderá aqui.",
    from: (title) => `De “${title}”: `,
    alsoFrom: (title) => `E de “${title}”: `,
    talkToPerson: "Falar com uma pessoa",
  },
};
