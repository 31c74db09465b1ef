// Synonyms and equivalent phrases: a query that says one of a group's phrases also looks for the
// others ("log in" finds "sign in"). A general built-in set of how people name the things of any
// online service, plus the groups an admin sets per agent (stored with the agent, see
// knowledge/synonyms.ts). Phrases match on stems, so "logging in" says "log in" too.

import { stem, wordsOf } from "./analyze.ts";
import { LANGUAGES, type Language } from "./languages.ts";

/** One group per line, phrases separated by commas; general words of online services and support. */
const BUILT_IN_EN = `
log in, sign in, login, signin, log on, sign on, logging in, access my account, get into my account
log out, sign out, logout, signout
sign up, register, create an account, registration, signup, open an account
forgot password, forgotten password, lost password, reset password, password reset, recover password, remember my password
username, user name, login name
charged twice, double charge, double charged, duplicate charge, billed twice, charged two times, two charges, paid twice
refund, money back, reimburse, reimbursement, get my money back, refunded
cancel, terminate, cancellation, end my subscription, stop paying, stop my subscription, quit
delete account, close account, remove account, close my account, delete my account, erase my account, deactivate
invoice, bill, receipt, billing statement
price, pricing, cost, fee, how much, rate, charge
cheaper, discount, coupon, promo code, promotion
pay, payment, paying
credit card, debit card, card, payment method
plan, subscription, tier, package
upgrade, move up, higher plan, switch to a bigger plan
downgrade, move down, lower plan, smaller plan
employee, staff, worker, team member, coworker, colleague, personnel, crew
manager, supervisor, boss, admin, administrator
invite, add people, add users, add employees, onboard
phone, mobile, smartphone, cell, iphone, android, app
email, e-mail, mail, inbox
notification, alert, reminder, push notification, notify
two factor, two-factor, 2fa, two step, two-step, mfa, multi-factor, multi factor, second factor, authenticator, verification code, 2-step
sso, single sign on, single sign-on, saml
api key, api token, access token, secret key
export, download, extract, backup
import, upload, bulk add, load
error, problem, issue, bug, not working, broken, doesnt work, fails, failing, wrong
slow, lag, laggy, takes forever, loading forever
delete, remove, erase, get rid of
change, update, edit, modify, adjust
time off, vacation, holiday, leave, pto, day off, days off, absence, sick day
shift, work schedule, rota, roster
clock in, punch in, check in, start my shift, clocking in
clock out, punch out, check out, end my shift, clocking out
timesheet, time sheet, time card, timecard, hours worked, worked hours
overtime, extra hours, over time
location, site, store, branch, office, venue, shop
customer, client
calendar, agenda, diary
server, data center, datacenter, hosting, hosted, data residency
privacy, personal data, gdpr, data protection
security, secure, safe, safety
integration, integrate, connect, connection, sync, synchronize, link
language, translation, translate, locale
time zone, timezone
trial, free trial, try for free, test for free
locked out, lockout, locked, blocked, cant get in
webhook, callback, web hook
permissions, roles, access rights, access level, role
report, reports, analytics, statistics, stats, dashboard
tax, vat, sales tax, gst
night, quiet hours, do not disturb, after hours
`;

/** The same ideas in the other languages, each group also naming its English words. */
const BUILT_IN_OTHER = `
contrasena, clave, password, mot de passe, passwort, kennwort, senha
olvide, oublie, vergessen, esqueci, forgot
factura, facture, rechnung, fatura, nota fiscal, invoice
reembolso, devolucion, devolver el dinero, remboursement, rembourser, erstattung, ruckerstattung, zuruckerstatten, geld zuruck, estorno, reembolsar, refund
cobraron dos veces, doble cobro, debite deux fois, preleve deux fois, zweimal abgebucht, doppelt abgebucht, cobrado duas vezes, cobranca duplicada, charged twice
cancelar, cancelacion, annuler, resilier, resiliation, kundigen, kundigung, stornieren, cancelamento, cancel
suscripcion, abonnement, assinatura, plano, plan, subscription
cuenta, compte, konto, conta, account
iniciar sesion, entrar, se connecter, connexion, anmelden, einloggen, anmeldung, fazer login, entrar na conta, log in
tarjeta, carte, karte, cartao, card
pago, paiement, zahlung, pagamento, payment
empleado, empleados, employe, salarie, mitarbeiter, funcionario, colaborador, employee
turno, turnos, horario, planning, equipe, schicht, dienstplan, escala, shift
vacaciones, conges, urlaub, ferias, time off
horas extra, heures supplementaires, uberstunden, horas extras, overtime
exportar, exporter, exportieren, export
importar, importer, importieren, import
notificacion, notificaciones, notification, benachrichtigung, notificacao, notification
eliminar, borrar, supprimer, loschen, excluir, apagar, delete
precio, prix, preis, preco, tarif, price
aplicacion, application, appli, app, aplicativo
correo, courriel, mail, e-mail, email
verificacion en dos pasos, double authentification, zwei faktor, zwei-faktor, verificacao em duas etapas, two factor
`;

/** A group as stemmed phrases (each phrase a sequence of stems, stop words kept in place). */
export type SynonymGroup = ReadonlyArray<readonly string[]>;

/** Groups from text: one group per line, phrases separated by commas (or "="). */
export function parseSynonymGroups(text: string, language: Language = "en"): SynonymGroup[] {
  const groups: SynonymGroup[] = [];
  for (const line of text.split(/\r?\n/)) {
    const phrases = line
      .split(/[,=]/)
      .map((phrase) => wordsOf(phrase).map((word) => stem(word, language)))
      .filter((phrase) => phrase.length > 0);
    if (phrases.length >= 2) groups.push(phrases);
  }
  return groups;
}

const BUILT_IN: Record<Language, SynonymGroup[]> = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    language === "en"
      ? parseSynonymGroups(BUILT_IN_EN, "en")
      : [...parseSynonymGroups(BUILT_IN_EN, "en"), ...parseSynonymGroups(BUILT_IN_OTHER, language)],
  ]),
) as Record<Language, SynonymGroup[]>;

export function builtInSynonyms(language: Language): SynonymGroup[] {
  return BUILT_IN[language];
}

/** Stop words a phrase may skip in a query ("forgot my password" says "forgot password"). */
const SKIPPABLE = new Set([
  "my",
  "the",
  "a",
  "an",
  "our",
  "your",
  "his",
  "her",
  "their",
  "mi",
  "mon",
  "ma",
  "mes",
  "le",
  "la",
  "el",
  "los",
  "las",
  "meu",
  "minha",
  "o",
  "mein",
  "meine",
  "das",
  "die",
  "der",
]);

/** Where `phrase` ends in `stems` when it starts at `at` (skipping a few stop words), or -1. */
function matchAt(stems: readonly string[], phrase: readonly string[], at: number): number {
  let position = at;
  for (let i = 0; i < phrase.length; i++) {
    let skipped = 0;
    while (i > 0 && stems[position] !== phrase[i] && SKIPPABLE.has(stems[position] ?? "") && skipped < 2) {
      position++;
      skipped++;
    }
    if (stems[position] !== phrase[i]) return -1;
    position++;
  }
  return position;
}

export interface SynonymExpansion {
  /** Where the matched phrase starts in the query, and how many words it has. */
  at: number;
  length: number;
  phrases: ReadonlyArray<readonly string[]>;
}

/**
 * For each group with a phrase in `stems` (the query's words, stemmed, stop words kept), the
 * other phrases of the group and where the matched phrase starts in the query.
 */
export function synonymExpansions(stems: readonly string[], groups: readonly SynonymGroup[]): SynonymExpansion[] {
  const expansions: SynonymExpansion[] = [];
  for (const group of groups) {
    for (const phrase of group) {
      let found: { at: number; end: number } | undefined;
      for (let at = 0; at + phrase.length <= stems.length && !found; at++) {
        const end = matchAt(stems, phrase, at);
        if (end >= 0) found = { at, end };
      }
      if (found) {
        expansions.push({ at: found.at, length: found.end - found.at, phrases: group.filter((other) => other !== phrase) });
        break;
      }
    }
  }
  return expansions;
}
