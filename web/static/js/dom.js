// Small helpers shared by the views: building elements (text only: nothing
// a server or a player sent is ever parsed as HTML), the focus, money,
// cards, chips. Each has its home here, and nowhere else. Words and
// amounts are in the page's language (i18n.js).

import { t, formatMoney, formatPercent, decimalSign } from './i18n.js';

// h builds an element: h('button', {class: 'x', onclick: f}, 'text', child…).
// Attributes whose value is false, null or undefined are left out.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'style' && typeof v === 'object') {
      for (const [p, x] of Object.entries(v)) el.style.setProperty(p.startsWith('--') ? p : p.replace(/[A-Z]/g, c => '-' + c.toLowerCase()), x);
    }
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// svgEl builds an SVG element as h builds an HTML one.
export function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

// replace empties an element and fills it with children.
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// MONEY_OPTIONS are the profile options that are amounts in minor units
// (rules.Options, "integer (minor units)"; web_test.go keeps the two
// lists one): shown as money, never as the integer.
export const MONEY_OPTIONS = new Set(['max_bet', 'min_bet', 'payout_unit']);

// optionAmounts is options as the pit types them (money as money:
// "max_bet=400.00", "400,00" in Spanish) with the money options in minor
// units, as the server takes them; a value that is no amount is left as
// typed (the server refuses it with its reason).
export function optionAmounts(options) {
  const out = {};
  for (const [k, v] of Object.entries(options)) {
    const m = MONEY_OPTIONS.has(k) ? parseMoney(v) : NaN;
    out[k] = Number.isNaN(m) ? v : String(m);
  }
  return out;
}

// optionText is a profile option as a player reads it: "max_bet=500.00".
export function optionText(key, value) {
  return MONEY_OPTIONS.has(key) && /^-?\d+$/.test(String(value)) ? `${key}=${money(Number(value))}` : `${key}=${value}`;
}

// money shows minor units in the page's language: 123456 is "1,234.56" in
// English, "1.234,56" in Spanish and Italian.
export function money(minor) {
  return formatMoney(minor);
}

// signed shows a net amount with its sign: "+10.00", "−5.00", "0.00".
export function signed(minor) {
  return minor > 0 ? '+' + money(minor) : money(minor);
}

// plainMoney is an amount as typed in a field: 123450 is "1234.50" ("1234,50"
// in Spanish and Italian).
export function plainMoney(minor) {
  const n = Number(minor || 0);
  const abs = Math.abs(n);
  return `${n < 0 ? '−' : ''}${Math.floor(abs / 100)}${decimalSign()}${String(abs % 100).padStart(2, '0')}`;
}

// netClass is the class of a net amount: 'up', 'down', or zero's.
export function netClass(n, zero = '') {
  return n > 0 ? 'up' : n < 0 ? 'down' : zero;
}

// parseMoney reads "12.5" as 1250 minor units (NaN if it is not an amount);
// in Spanish and Italian the decimal sign is a comma ("1.234,5"), and a point
// alone before two digits is read as the decimal sign too ("12.50").
export function parseMoney(s) {
  let x = String(s).trim();
  if (decimalSign() === ',') {
    x = /^\d+\.\d{1,2}$/.test(x) ? x : x.replace(/\./g, '').replace(',', '.');
  } else x = x.replace(/,/g, '');
  const m = x.match(/^(\d+)(?:\.(\d{0,2}))?$/);
  if (!m) return NaN;
  return Number(m[1]) * 100 + Number((m[2] || '').padEnd(2, '0'));
}

export function pct(x, digits = 2) {
  return formatPercent(x, digits);
}

const SUITS = { S: ['♠', 'spades'], H: ['♥', 'hearts'], D: ['♦', 'diamonds'], C: ['♣', 'clubs'] };
export const HIDDEN = '??';

// cardName says a card: "QH" is "queen of hearts".
export function cardName(code) {
  if (!code || code === HIDDEN) return t('card.faceDownA');
  return t('card.name', { rank: t('rank.' + code[0]), suit: t('suit.' + code[1]) });
}

// cardShort shows a card with its suit symbol: "Q♥", "10♠".
export function cardShort(code) {
  if (!code || code === HIDDEN) return '🂠';
  return (code[0] === 'T' ? '10' : code[0]) + SUITS[code[1]][0];
}

// cardEl draws a card: the face with its rank and suit in the corners and
// the middle, or its back. A face-down card carries nothing of its face.
export function cardEl(code, { fresh = false } = {}) {
  if (!code || code === HIDDEN) {
    return h('span', { class: 'card back' + (fresh ? ' fresh' : ''), role: 'img', 'aria-label': t('card.faceDown') });
  }
  const rank = code[0] === 'T' ? '10' : code[0];
  const [sym] = SUITS[code[1]];
  const red = code[1] === 'H' || code[1] === 'D';
  return h('span', { class: `card ${red ? 'red' : 'black'}${fresh ? ' fresh' : ''}`, role: 'img', 'aria-label': cardName(code), 'data-card': code },
    h('span', { class: 'corner', 'aria-hidden': 'true' }, h('b', {}, rank), h('i', {}, sym)),
    h('span', { class: 'pip', 'aria-hidden': 'true' }, sym),
    h('span', { class: 'corner end', 'aria-hidden': 'true' }, h('b', {}, rank), h('i', {}, sym)));
}

// The chip values, in minor units, and their colours.
const CHIPS = [100, 500, 2500, 10000, 50000, 100000, 500000, 1000000];

// chipSet picks the chips a table's limits call for: the minimum if it is
// not a chip, then up to five chips within the limits.
export function chipSet(min, max) {
  const out = [];
  if (!CHIPS.includes(min) && min > 0) out.push(min);
  for (const c of CHIPS) if (c >= min && c <= max) out.push(c);
  if (out.length === 0) out.push(Math.max(1, min));
  return out.slice(0, 6);
}

// chipClass is a chip's colour class by its value.
export function chipClass(v) {
  if (v >= 1000000) return 'chip-orange';
  if (v >= 500000) return 'chip-yellow';
  if (v >= 100000) return 'chip-blue';
  if (v >= 50000) return 'chip-purple';
  if (v >= 10000) return 'chip-black';
  if (v >= 2500) return 'chip-green';
  if (v >= 500) return 'chip-red';
  return 'chip-white';
}

export function chipLabel(v) {
  if (v % 100 !== 0) return money(v);
  const u = v / 100;
  return u >= 1000 ? (u / 1000) + 'k' : String(u);
}

// chipStack is a stake as a small stack of chips, up to five, the largest
// first: 2650 is 2500, 100 and 50.
export function chipStack(amount) {
  const out = [];
  let left = amount;
  for (const v of [...CHIPS].reverse()) {
    while (left >= v && out.length < 5) {
      out.push(v);
      left -= v;
    }
  }
  if (left > 0 && out.length < 5) out.push(left);
  return out;
}

// keepFocus redraws part of the page without losing the keyboard focus: the
// element focused inside it is found again by its data-fk. It says whether
// it was.
export function keepFocus(root, draw) {
  const a = document.activeElement;
  const key = a && root.contains(a) ? a.dataset.fk : null;
  draw();
  const again = key ? root.querySelector(`[data-fk="${CSS.escape(key)}"]`) : null;
  again?.focus();
  return !!again;
}

// isTyping says whether the focus is in a field: the page's keyboard
// shortcuts leave its keys alone.
export function isTyping() {
  const a = document.activeElement;
  return !!a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT' || a.isContentEditable);
}

// randomID is a random hex string (crypto.randomUUID needs a secure context).
export function randomID(bytes = 8) {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
}

// plural picks a word's form by a count (English only: a translated page
// uses t() with plural forms).
export function plural(n, one, many) {
  return n === 1 ? one : many;
}
