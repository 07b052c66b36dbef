// The hand calculator and the strategy card's values: each action's exact
// value for a hand against an up card under the table's rules, from the
// server's /api/tables/{id}/ev (analysis.HandValues, the same numbers as
// `sabot ev`).

import { api } from './api.js';
import { h, replace } from './dom.js';
import { refusal, t } from './i18n.js';

const UPS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'A'];
const ACTIONS = ['stand', 'hit', 'double', 'split', 'surrender', 'even_money'];

// signed prints an expectation per initial unit with four decimals.
export function signed(x) {
  return (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(4);
}

// handEV asks the server for the values of a hand; options are key=value
// changes to the table's rules (as sabot's -o).
export function handEV(id, { up, hand, removed = '', splitHands = 0, splitPlay = '', options = [] }) {
  const q = new URLSearchParams({ up, hand });
  if (removed.trim()) q.set('removed', removed.trim());
  if (splitHands) q.set('split_hands', String(splitHands));
  if (splitPlay) q.set('split_play', splitPlay);
  for (const o of options) q.append('o', o);
  return api(`/api/tables/${id}/ev?${q}`);
}

// valuesView shows the values: each action open to the hand, the best
// marked, insurance apart, and whether they are given no dealer blackjack.
// Each value cell holds the exact number (data-ev) and shows nine decimals
// on hover (title).
export function valuesView(v) {
  const rows = ACTIONS.filter(a => v[a] !== undefined).map(a =>
    h('tr', { class: a === v.best ? 'best' : null, 'data-action': a },
      h('th', {}, t('calc.' + a)),
      h('td', { 'data-ev': String(v[a]), title: v[a].toFixed(9) }, signed(v[a])),
      h('td', {}, a === v.best ? t('calc.bestMark') : '')));
  return h('div', { class: 'ev-values' },
    h('table', { class: 'ev-table' }, h('tbody', {}, rows)),
    v.insurance !== undefined ? h('p', { class: 'hint' }, t(v.insurance > 0 ? 'calc.insurance' : 'calc.insuranceNot', { ev: signed(v.insurance) })) : null,
    h('p', { class: 'hint' }, v.peeked ? t('calc.peeked') : t('calc.unit')));
}

// RULE_PICKS are the options the calculator offers to change, each with
// its choices (value, catalogue key); the others go in "more options".
const RULE_PICKS = [
  ['decks', ['1', '2', '4', '5', '6', '8'].map(n => [n, null])],
  ['dealer_hits_soft_17', [['false', 'calc.s17'], ['true', 'calc.h17']]],
  ['double_after_split', [['true', 'calc.yes'], ['false', 'calc.no']]],
  ['resplit_aces', [['false', 'calc.no'], ['true', 'calc.yes']]],
  ['surrender', [['none', 'calc.surrNone'], ['late', 'calc.surrLate'], ['early', 'calc.surrEarly']]],
];

// rulePicker is the calculator's choice of the rules: the table's options,
// read from /api/tables/{id}/rules, each of RULE_PICKS a select set to the
// table's value, and a field for any other key=value. changes() lists the
// options that differ from the table's.
function rulePicker(id) {
  let table = {};
  const selects = RULE_PICKS.map(([key, choices]) =>
    h('select', { name: 'o-' + key, 'data-option': key, 'aria-label': t('calc.opt.' + key) },
      choices.map(([v, label]) => h('option', { value: v }, label ? t(label) : v))));
  const more = h('input', { name: 'o-more', value: '', size: 28, placeholder: t('calc.moreHint'), 'aria-label': t('calc.more') });
  for (const sel of selects) sel.addEventListener('change', () => { sel.dataset.touched = '1'; });
  const el = h('fieldset', { class: 'calc-rules' },
    h('legend', {}, t('calc.rules')),
    selects.map(sel => [h('label', {}, t('calc.opt.' + sel.dataset.option), ' ', sel), ' ']),
    h('label', {}, t('calc.more'), ' ', more));
  // Until the table's values come, every select sends nothing.
  api(`/api/tables/${id}/rules`).then(r => {
    table = r.values || {};
    for (const sel of selects) {
      const v = table[sel.dataset.option];
      if (v === undefined || sel.dataset.touched) continue;
      if (![...sel.options].some(o => o.value === v)) sel.append(h('option', { value: v }, v));
      sel.value = v;
    }
    el.dataset.loaded = '1';
  }, () => {});
  const changes = () => [
    ...selects.filter(sel => table[sel.dataset.option] !== undefined && sel.value !== table[sel.dataset.option])
      .map(sel => sel.dataset.option + '=' + sel.value),
    ...more.value.split(/[\s;]+/).filter(Boolean)];
  return { el, changes };
}

// calculator is the hand calculator's panel for table id.
export function calculator(id) {
  const up = h('select', { name: 'up', 'aria-label': t('calc.up') }, UPS.map(u => h('option', { value: u, selected: u === 'T' || null }, u)));
  const hand = h('input', { name: 'hand', value: '8,8', size: 12, 'aria-label': t('calc.hand') });
  const removed = h('input', { name: 'removed', value: '', size: 18, placeholder: t('calc.removedHint'), 'aria-label': t('calc.removed') });
  const splits = h('select', { name: 'split_hands', 'aria-label': t('calc.splitHands') },
    h('option', { value: '0' }, t('calc.splitTable')), ['2', '3', '4'].map(n => h('option', { value: n }, n)));
  const play = h('select', { name: 'split_play', 'aria-label': t('calc.splitPlay') },
    h('option', { value: 'cdp1' }, t('calc.splitCDP1')), h('option', { value: 'cdz' }, t('calc.splitCDZ')),
    h('option', { value: 'cdp' }, t('calc.splitCDP')), h('option', { value: 'exact' }, t('calc.splitExact')));
  const rules = rulePicker(id);
  const out = h('div', { class: 'calc-out', 'aria-live': 'polite' });
  const form = h('form', { class: 'calc-form' },
    h('label', {}, t('calc.up'), ' ', up), ' ',
    h('label', {}, t('calc.hand'), ' ', hand), ' ',
    h('label', {}, t('calc.removed'), ' ', removed), ' ',
    h('label', {}, t('calc.splitHands'), ' ', splits), ' ',
    h('label', {}, t('calc.splitPlay'), ' ', play), ' ',
    rules.el,
    h('button', { type: 'submit', class: 'calc-go' }, t('calc.go')));
  form.addEventListener('submit', e => {
    e.preventDefault();
    replace(out, h('p', { class: 'hint' }, t('calc.computing')));
    handEV(id, { up: up.value, hand: hand.value, removed: removed.value, splitHands: Number(splits.value), splitPlay: play.value, options: rules.changes() }).then(
      v => replace(out, valuesView(v)),
      err => replace(out, h('p', { class: 'calc-error' }, refusal(err))));
  });
  return h('details', { class: 'calculator' },
    h('summary', {}, t('calc.heading')),
    h('p', { class: 'hint' }, t('calc.hint')), form, out);
}

// strategyGrid draws the basic strategy card as a table, from the rows of
// /api/tables/{id}/strategy; each cell shows its hand's values on hover,
// focus or tap.
export function strategyGrid(id, card) {
  const shown = h('div', { class: 'cell-values', 'aria-live': 'polite' }, h('p', { class: 'hint' }, t('calc.cellHint')));
  const cache = new Map();
  function show(row, up, cell) {
    for (const c of cell.closest('table').querySelectorAll('td.on')) c.classList.remove('on');
    cell.classList.add('on');
    const key = row.hand + '|' + up;
    const title = h('p', { class: 'cell-title' }, t('calc.cellTitle', { label: row.label, hand: row.hand, up }));
    if (!cache.has(key)) cache.set(key, handEV(id, { up, hand: row.hand }));
    replace(shown, title, h('p', { class: 'hint' }, t('calc.computing')));
    cache.get(key).then(v => {
      if (cell.classList.contains('on')) replace(shown, title, valuesView(v));
    }, err => replace(shown, title, h('p', { class: 'calc-error' }, refusal(err))));
  }
  const blocks = [];
  for (const kind of ['hard', 'soft', 'pair']) {
    const rows = card.rows.filter(r => r.kind === kind);
    if (!rows.length) continue;
    blocks.push(h('table', { class: 'strategy-grid', 'data-kind': kind },
      h('thead', {}, h('tr', {}, h('th', {}, t('calc.kind.' + kind)), card.ups.map(u => h('th', {}, u)))),
      h('tbody', {}, rows.map(r => h('tr', {},
        h('th', {}, r.label),
        r.codes.map((code, i) => {
          const cell = h('td', { class: 'code-' + code[0], tabindex: 0, 'data-hand': r.hand, 'data-up': card.ups[i] }, code);
          const on = () => show(r, card.ups[i], cell);
          cell.addEventListener('mouseenter', on);
          cell.addEventListener('focus', on);
          cell.addEventListener('click', on);
          return cell;
        }))))));
  }
  return h('div', { class: 'strategy-grids' }, h('div', { class: 'grids' }, blocks), shown);
}
