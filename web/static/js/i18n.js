// The page's languages: English, Spanish and Italian. t(key, params) words a
// message of the catalogue of the language in use (js/i18n/en.js, es.js,
// it.js: plain modules, loaded with the page, no build step); a message with
// plural forms picks one by Intl.PluralRules; money and dates are written
// in the language's way by Intl.NumberFormat and Intl.DateTimeFormat. The
// language is the one saved in this browser (the switch in the header), or
// the first of the browser's languages the page speaks, or English.
// See docs/web.md, "Languages".

import en from './i18n/en.js';
import es from './i18n/es.js';
import it from './i18n/it.js';

export const CATALOGUES = { en, es, it };
// SERVER_WORDED are the prefixes of the keys of phrases the server says in
// English (phrase()): the rules in plain words, the significant events. The
// English catalogue has none of them; Spanish and Italian have them all.
export const SERVER_WORDED = ['rule.', 'topic.', 'profile.', 'event.'];
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'it', name: 'Italiano' },
];
const STORE_KEY = 'sabot.lang';

// pick is the first of a browser's languages the page speaks ("es-AR" is
// Spanish), else English.
export function pick(languages) {
  for (const l of languages || []) {
    const base = String(l).toLowerCase().split('-')[0];
    if (CATALOGUES[base]) return base;
  }
  return 'en';
}

function stored() {
  try {
    return globalThis.localStorage?.getItem(STORE_KEY) || '';
  } catch {
    return '';
  }
}

let lang = CATALOGUES[stored()] ? stored() : pick(globalThis.navigator?.languages);
let plurals = new Intl.PluralRules(lang);
let currency = '';

// lang is the language in use: 'en', 'es' or 'it'.
export function getLang() {
  return lang;
}

// setLang changes the language (remembered in this browser when remember is
// true) and tells the page ('lang' on the returned target).
export const langBus = new EventTarget();
export function setLang(code, remember = true) {
  if (!CATALOGUES[code]) return;
  lang = code;
  plurals = new Intl.PluralRules(lang);
  if (remember) {
    try {
      globalThis.localStorage?.setItem(STORE_KEY, code);
    } catch { /* a private window: the choice lasts the page */ }
  }
  if (globalThis.document) document.documentElement.lang = code;
  langBus.dispatchEvent(new Event('lang'));
}

// setCurrency names the currency money is shown in (an ISO 4217 code, e.g.
// "EUR"); '' shows amounts without one. The server names it (/api/site,
// `sabot serve --currency`).
export function setCurrency(code) {
  currency = code || '';
}

// t words a message: the key's text in the language in use (English if the
// catalogue lacks it, the key itself if English does too) with each {name}
// replaced by params.name. A message with plural forms ({one, other, …})
// picks one by params.n.
export function t(key, params = {}) {
  let m = CATALOGUES[lang][key] ?? en[key];
  if (m === undefined) return key;
  if (typeof m === 'object') {
    const n = Number(params.n ?? 0);
    m = m[n === 0 && m.zero !== undefined ? 'zero' : plurals.select(n)] ?? m.other;
  }
  return m.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

// The values of a reason that are amounts in minor units.
const MONEY_PARAMS = new Set(['amount', 'held', 'min', 'max', 'stake', 'limit', 'used', 'funds', 'win']);
// The values that are figures with decimals: two of them, in the language's way.
const DECIMAL_PARAMS = new Set(['rtp', 'low', 'high', 'certified', 'z', 'hilo', 'hiopt']);

// refusal words a server's refusal or a "waiting" event in the language in
// use: by its reason and values where the catalogue has the reason
// (reason.KEY), else the server's own one-line text (docs/protocol.md,
// "Errors").
export function refusal({ reason, params, error, text } = {}) {
  if (!reason || !has('reason.' + reason)) return error ?? text ?? '';
  // An error given only its code's general reason (error_CODE): on an
  // English page its own line says more; in another language the general
  // words, not English.
  if (reason.startsWith('error_') && lang === 'en' && (error || text)) return error ?? text;
  const words = t('reason.' + reason, values(params));
  // The rules a refusal cites, where its words do not name them: after
  // the words ("No bet once the first card has left the shoe (ES-01).").
  const form = CATALOGUES[lang]['reason.' + reason] ?? en['reason.' + reason];
  if (!params?.rule || JSON.stringify(form).includes('{rule}')) return words;
  return words.replace(/(\.?)$/, ` (${params.rule})$1`);
}

// values writes a server's values as the page words them: amounts as money,
// times as dates, a limit's period and an exclusion's kind by the catalogue;
// n stays a number (it picks the plural form).
export function values(params) {
  const p = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (MONEY_PARAMS.has(k)) p[k] = formatMoney(v);
    else if (k === 'period' || k === 'exclusion') p[k] = t(`care.${k}.${v}`); // a limit's period, an exclusion's kind
    else if (k === 'until' || k === 'at') p[k] = formatDate(v, { dateStyle: 'long', timeStyle: 'short' });
    else if (k === 'action' && has('action.' + v)) p[k] = t('action.' + v).toLowerCase(); // a decision applied by timeout
    else if (DECIMAL_PARAMS.has(k)) p[k] = numberFormat('plain').format(v); // a return in per cent, a score
    else p[k] = v;
  }
  return p;
}

// phrase words a piece of a server's sentence ({key, params, text}: the
// rules in plain words, an event's summary) by the catalogue of the
// language in use (PREFIX.key), else as the server said it in English.
// English is mostly the server's own: its catalogue has only the events'
// keys (the pit's words, amounts in the currency, dates, plurals).
export function phrase(prefix, { key, params, text } = {}) {
  if (!key || !((prefix + key) in CATALOGUES[lang])) return text ?? '';
  return t(prefix + key, values(params));
}

// sentence words a server's sentence said in phrases (PREFIX.key each), or
// says its text where it came without them.
export function sentence(prefix, phrases, text = '') {
  return phrases?.length ? phrases.map(p => phrase(prefix, p)).join('') : text;
}

// has says whether a key is in the English catalogue.
export function has(key) {
  return key in en;
}

const numberFormats = new Map();
function numberFormat(style) {
  const k = `${lang}|${style}|${currency}`;
  let f = numberFormats.get(k);
  if (!f) {
    const o = { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' };
    if (style === 'money' && currency) Object.assign(o, { style: 'currency', currency });
    f = new Intl.NumberFormat(lang === 'en' ? 'en-US' : lang, o);
    numberFormats.set(k, f);
  }
  return f;
}

// formatMoney writes minor units in the language's way: 123456 is
// "1,234.56" in English, "1.234,56" in Spanish and Italian ("1.234,56 €"
// with a currency). A loss has a minus sign (−).
export function formatMoney(minor, { plain = false } = {}) {
  const n = Number(minor || 0);
  const s = numberFormat(plain ? 'plain' : 'money').format(Math.abs(n) / 100);
  return (n < 0 ? '−' : '') + s;
}

// decimalSign is the language's decimal separator: "." or ",".
export function decimalSign() {
  return lang === 'en' ? '.' : ',';
}

// formatDate writes a time (ms since the epoch, or a Date) in the
// language's way; opts are Intl.DateTimeFormat's.
export function formatDate(when, opts = { dateStyle: 'medium', timeStyle: 'medium' }) {
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, opts).format(new Date(when));
}

// formatPercent writes a fraction as a percentage with digits decimals.
export function formatPercent(x, digits = 2) {
  return new Intl.NumberFormat(lang === 'en' ? 'en-US' : lang, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}
