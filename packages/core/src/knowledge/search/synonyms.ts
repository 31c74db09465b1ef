// Synonyms and equivalent phrases: a query that says one of a group's phrases also looks for the
// others ("log in" finds "sign in"). A general built-in set of how people name the things of any
// online service, plus the groups an admin sets per agent (stored with the agent, see
// knowledge/synonyms.ts). Phrases match on stems, so "logging in" says "log in" too.

import { LANGUAGES, type Language } from "../languages/detection.ts";
import { stem, wordsOf } from "./analyze.ts";

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
mac, macos, os x, osx, macbook, imac
folder, directory
restore, recover, get back, bring back, undelete, retrieve
previous version, older version, earlier version, old version, revision, version history
permissions, roles, access rights, access level, role
report, reports, analytics, statistics, stats, dashboard
tax, vat, sales tax, gst
night, quiet hours, do not disturb, after hours
`;

/**
 * The same ideas in the other languages (es, fr, de, pt), each group also naming its English
 * words: the general vocabulary of online services and their support, so a question in one
 * language finds an article written in another.
 */
const BUILT_IN_OTHER = `
contrasena, clave, password, mot de passe, passwort, kennwort, senha
olvide, olvidado, oublie, vergessen, esqueci, esquecida, forgot
restablecer, reinicializar, reinitialiser, zurucksetzen, redefinir, reset
factura, facturas, facture, factures, rechnung, rechnungen, fatura, faturas, nota fiscal, invoice
recibo, recu, quittung, beleg, recibo de pagamento, receipt
reembolso, devolucion, devolver el dinero, remboursement, rembourser, erstattung, ruckerstattung, zuruckerstatten, geld zuruck, estorno, reembolsar, refund, money back
cobraron dos veces, doble cobro, debite deux fois, preleve deux fois, zweimal abgebucht, doppelt abgebucht, doppelt belastet, cobrado duas vezes, cobranca duplicada, charged twice
cobro, cargo, prelevement, debit, abbuchung, belastung, cobranca, charge
cancelar, cancelacion, annuler, resilier, resiliation, kundigen, kundigung, stornieren, cancelamento, cancel
suscripcion, abonnement, assinatura, plano, plan, subscription
cuenta, compte, konto, conta, account
iniciar sesion, entrar, se connecter, connexion, anmelden, einloggen, anmeldung, fazer login, entrar na conta, log in, sign in
cerrar sesion, se deconnecter, deconnexion, abmelden, ausloggen, sair da conta, log out, sign out
registrarse, crear una cuenta, inscription, creer un compte, registrieren, konto erstellen, cadastrar, criar conta, sign up
tarjeta, tarjeta de credito, carte, carte bancaire, karte, kreditkarte, cartao, cartao de credito, card, credit card
pago, pagos, paiement, paiements, zahlung, zahlungen, pagamento, pagamentos, payment
pagar, payer, bezahlen, zahlen, pay
transferencia, virement, uberweisung, transferencia bancaria, bank transfer
domiciliacion, adeudo directo, prelevement sepa, lastschrift, debito automatico, direct debit
precio, precios, prix, tarif, tarifs, preis, preise, preco, precos, price, pricing
cuanto cuesta, combien coute, was kostet, quanto custa, cost, how much
gratis, gratuito, gratuit, kostenlos, gratuita, free
prueba, periodo de prueba, essai, essai gratuit, testphase, testversion, teste, teste gratis, trial, free trial
descuento, remise, reduction, rabatt, desconto, discount
impuesto, iva, taxe, tva, steuer, mehrwertsteuer, mwst, imposto, tax, vat
mejorar plan, cambiar de plan, passer a, changer de formule, upgraden, tarif wechseln, mudar de plano, upgrade
mensual, mensuel, monatlich, mensal, monthly
anual, annuel, jahrlich, anual, yearly, annual
empleado, empleados, employe, employes, salarie, salaries, mitarbeiter, mitarbeitende, funcionario, funcionarios, colaborador, colaboradores, employee, staff
equipo, equipe, team, equipa, team
gerente, encargado, responsable, manager, vorgesetzter, gerente, gestor, manager
propietario, dueno, proprietaire, inhaber, eigentumer, proprietario, dono, owner
invitar, invitacion, inviter, invitation, einladen, einladung, convidar, convite, invite
rol, roles, permisos, role, droits, rolle, rollen, berechtigungen, papel, permissoes, role, permissions
turno, turnos, horario, planning, equipe de nuit, schicht, schichten, dienstplan, escala, turno de trabalho, shift, schedule
vacaciones, dias libres, conges, conge, urlaub, ferias, folga, time off, vacation
baja por enfermedad, arret maladie, krankmeldung, krank, atestado, licenca medica, sick leave
horas extra, heures supplementaires, uberstunden, horas extras, overtime
fichar, fichaje, pointer, pointage, einstempeln, stempeln, bater ponto, registrar ponto, clock in
hoja de horas, feuille de temps, stundenzettel, zeiterfassung, folha de ponto, timesheet
pausa, descanso, pause, pause dejeuner, pause, intervalo, break
salario, sueldo, salaire, lohn, gehalt, salario, wage, pay rate
nomina, paie, lohnabrechnung, folha de pagamento, payroll
cliente, clientes, client, clients, kunde, kunden, cliente, clientes, client, customer
exportar, exporter, exportieren, export
importar, importer, importieren, import
descargar, telecharger, herunterladen, baixar, download
subir, cargar, televerser, hochladen, carregar, enviar arquivo, upload
notificacion, notificaciones, notification, benachrichtigung, benachrichtigungen, notificacao, notificacoes, notification
recordatorio, rappel, erinnerung, lembrete, reminder
eliminar, borrar, supprimer, loschen, excluir, apagar, delete
cambiar, modificar, changer, modifier, andern, bearbeiten, alterar, mudar, change, edit
anadir, agregar, ajouter, hinzufugen, adicionar, add
aplicacion, aplicacion movil, application, appli, app, anwendung, aplicativo, app
movil, celular, telefono, portable, telephone, handy, smartphone, celular, telemovel, phone, mobile
correo, correo electronico, courriel, mail, e-mail, email, e mail
datos, donnees, daten, dados, data
datos personales, donnees personnelles, personenbezogene daten, dados pessoais, personal data, privacy
seguridad, securite, sicherheit, seguranca, security
almacenar, almacenados, stocker, stockees, heberger, speichern, gespeichert, armazenar, armazenados, stored, hosting, data residency
verificacion en dos pasos, doble autenticacion, double authentification, authentification a deux facteurs, zwei faktor, zwei-faktor, zweistufige verifizierung, verificacao em duas etapas, autenticacao de dois fatores, two factor, 2fa
codigo, code, code, code, codigo, code
bloqueado, bloquee, gesperrt, bloqueada, bloqueado, locked
error, erreur, fehler, erro, error
no funciona, ne fonctionne pas, marche pas, funktioniert nicht, geht nicht, nao funciona, not working
se cierra, plante, crash, sturzt ab, absturz, trava, fecha sozinho, crash
lento, lent, langsam, lento, slow
sincronizar, synchroniser, synchronisieren, sincronizar, sync
conectar, integracion, connecter, integration, verbinden, integration, conectar, integracao, connect, integration
calendario, agenda, calendrier, kalender, calendario, calendar
informe, informes, rapport, rapports, bericht, berichte, relatorio, relatorios, report
idioma, langue, sprache, idioma, language
zona horaria, fuseau horaire, zeitzone, fuso horario, time zone
ubicacion, sucursal, lieu, site, etablissement, standort, filiale, local, unidade, location
empresa, negocio, entreprise, societe, unternehmen, firma, betrieb, empresa, negocio, company, business, workspace
sin conexion, hors ligne, offline, sem internet, sem conexao, offline
soporte, atencion al cliente, support, assistance, kundendienst, support, suporte, atendimento, support
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

/**
 * The groups of several languages, each phrase stemmed both in `language` and in English (the
 * groups mix both, and English articles index English stems: "notification" is "notif" there).
 */
function multilingualGroups(text: string, language: Language): SynonymGroup[] {
  const local = parseSynonymGroups(text, language);
  const english = parseSynonymGroups(text, "en");
  return local.map((group, i) => {
    const phrases = new Map<string, readonly string[]>();
    for (const phrase of [...group, ...english[i]!]) phrases.set(phrase.join(" "), phrase);
    return [...phrases.values()];
  });
}

const BUILT_IN: Record<Language, SynonymGroup[]> = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    language === "en"
      ? parseSynonymGroups(BUILT_IN_EN, "en")
      : [...parseSynonymGroups(BUILT_IN_EN, "en"), ...multilingualGroups(BUILT_IN_OTHER, language)],
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
