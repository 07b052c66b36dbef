// The decisions this player may make now: a row for each box and hand, the
// situation in the dealer's words, a button for each decision the rules
// allow (with its keyboard shortcut, on the first row), and the stake a
// decision takes (insurance; a double for less, VE-19). What is offered is
// worked out from a TableState by pure functions; Prompt draws it and sends
// the decision.

import { session, commandID } from './api.js';
import { Once, decisionPoint } from './once.js';
import { h, replace, keepFocus, isTyping, money, plainMoney, parseMoney } from './dom.js';
import { inWindow, followRule, tenUp } from './state.js';
import { t } from './i18n.js';

// Each decision's key (its name is action.NAME of the catalogue), and the
// order they are offered in.
// ACTIONS are the decisions with a keyboard shortcut: each one's key is in
// the page's language (key.ACTION in the catalogues: S for Stand, L for
// Plantarse, O for No carta), one letter of its button's word.
export const ACTIONS = new Set(['hit', 'stand', 'double', 'split', 'surrender', 'insure', 'even-money', 'challenge',
  'withdraw']); // withdraw: AR-23 (f), a skipped player takes his bet back

// actionKey is a decision's keyboard shortcut in the page's language.
export function actionKey(action) {
  return ACTIONS.has(action) || action === 'decline' ? t('key.' + action) : '';
}
const ORDER = ['hit', 'stand', 'double', 'split', 'surrender', 'insure', 'even-money', 'challenge', 'declare', 'withdraw'];

// The phases with a heading of their own (prompt.heading.PHASE).
const HEADINGS = new Set(['playing', 'insurance', 'challenge', 'follow', 'ace-choice']);

// promptHeading is the question a phase asks: under a ten the insurance
// window offers even money alone (VE-16), and is called so.
export function promptHeading(phase, state) {
  if (phase === 'insurance' && state && tenUp(state.round)) return t('prompt.heading.evenMoney');
  return t('prompt.heading.' + (HEADINGS.has(phase) ? phase : 'playing'));
}

// elevenKey is the key of "the Ace counts 11", in the page's language (e
// for eleven, o for once, u for undici); 1 is the key of "counts 1".
export function elevenKey() {
  return t('prompt.key11');
}

// careRefuses says whether a decision's stake would pass the player's
// limits: room is the most he may stake now (GET /api/me/care's
// stake_room; undefined: no such limit), need the stake it takes — a
// double's or a split's is the hand's stake; a double for less (VE-19) may
// take one unit.
export function careRefuses(action, room, need, forLess = false) {
  if (room === undefined || room === null) return false;
  if (action !== 'double' && action !== 'split') return false;
  return room < (action === 'double' && forLess ? 1 : need);
}

// promptGroups groups the legal decisions by box and hand, in the order the
// server lists them: [{box, hand, legal}].
export function promptGroups(legal) {
  const groups = new Map();
  for (const l of legal) {
    const k = `${l.box}/${l.hand || 1}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(l);
  }
  return [...groups].map(([k, ls]) => {
    const [box, hand] = k.split('/').map(Number);
    return { box, hand, legal: ls };
  });
}

// doubleForLess says whether a double may take a stake of its own (VE-19),
// once the table's rules are known.
export function doubleForLess(state) {
  return state.values?.double_for_less === 'true';
}

// mainBet is this player's stake on a hand: its main bet, or its split's.
export function mainBet(state, box, hand) {
  return state.round?.bets.find(b => b.player === state.me && b.box === box && (b.hand || 1) === hand && (b.kind === 'main' || b.kind === 'split'));
}

// promptText says a row's situation: the hand and what the decision is.
export function promptText(state, phase, box, hand, ls) {
  const r = state.round;
  const x = r?.hand(box, hand);
  const up = r?.dealer.cards[0];
  const myMain = mainBet(state, box, hand);
  let text;
  switch (phase) {
    case 'insurance':
      text = `${t('prompt.insurance', { box, up: t(up && up[0] === 'A' ? 'prompt.upAce' : 'prompt.upTen') })} ${ls.some(l => l.action === 'insure') ? t('prompt.insurancePays', { max: money(ls.find(l => l.action === 'insure').stake) }) : ''} ${ls.some(l => l.action === 'even-money') ? t('prompt.evenMoney') : ''}`;
      break;
    case 'challenge':
      text = t('prompt.challenge', { box, half: myMain ? ` (${money(Math.floor(myMain.stake / 2))})` : '' });
      break;
    case 'follow':
      text = t(r?.followKind === 'double' ? 'prompt.followDouble' : 'prompt.followSplit', { box, stake: myMain ? ` (${money(myMain.stake)})` : '', rule: followRule(state.table?.profile) });
      break;
    case 'ace-choice':
      text = t('prompt.aceChoice', { hand: state.label(box, hand) });
      break;
    default:
      text = t('prompt.playing', { hand: state.label(box, hand), total: x?.playerTotal() || '', dealer: r?.dealer.dealerTotal() || '?' });
      if (ls.some(l => l.action === 'declare') && !ls.some(l => l.action === 'hit')) text += ' ' + t('prompt.declareFirst');
  }
  return text;
}

// promptButtons is a row's decisions in the order offered, each with its
// label and key: [{legal, label, key}].
// In the VE-13 window the Ace counts 1 or 11, one button each; 11 is what
// time running out leaves (the window closes), and is marked so.
export function promptButtons(phase, ls) {
  const sorted = [...ls].sort((a, b) => ORDER.indexOf(a.action) - ORDER.indexOf(b.action) || (a.value || 0) - (b.value || 0));
  return sorted.map(l => {
    if (l.action === 'declare') return { legal: l, label: t('prompt.aceCounts', { n: l.value }), key: l.value === 1 ? '1' : elevenKey(), def: phase === 'ace-choice' && l.value === 11 };
    if (phase === 'follow') return { legal: l, label: t(l.action === 'double' ? 'prompt.doubleToo' : 'prompt.splitToo'), key: actionKey(l.action) };
    return { legal: l, label: ACTIONS.has(l.action) ? t('action.' + l.action) : l.action, key: actionKey(l.action) };
  });
}

// declineLabel is the button that passes in a window.
export function declineLabel(phase) {
  return t(phase === 'ace-choice' ? 'prompt.keep11' : 'prompt.noThanks');
}

// declines says whether a window has a button that passes: the VE-13
// choice has none, its "counts 11" being the same choice.
export function declines(phase) {
  return inWindow(phase) && phase !== 'ace-choice';
}

// checkStake reads a decision's stake as typed: {stake} from min to max
// and within the wallet (if known), else {error}, a one-line reason.
export function checkStake(text, what, min, max, wallet) {
  const v = parseMoney(text);
  const w = t('stake.what.' + what);
  if (!Number.isFinite(v)) return { error: t('stake.notAmount', { what: w, min: money(min), max: money(max), example: plainMoney(Math.max(min, Math.min(max, 250))) }) };
  if (v < min || v > max) return { error: t('stake.range', { what: w, min: money(min), max: money(max), amount: money(v) }) };
  if (typeof wallet === 'number' && v > wallet) return { error: t('stake.funds', { what: w, held: money(wallet), amount: money(v) }) };
  return { stake: v };
}

// stepStake is a stake as typed moved one step up or down, within min and
// max (from min if it is not an amount).
export function stepStake(text, up, min, max, step) {
  const v = parseMoney(text);
  const base = Number.isFinite(v) ? v : min;
  return up ? Math.min(max, base + step) : Math.max(min, base - step);
}

// actFields is the command's fields for a decision, with its stake if it
// was asked.
export function actFields(l, stake) {
  const fields = { action: l.action, box: l.box, hand: l.hand || 1 };
  if (l.action === 'declare') fields.value = l.value;
  if (l.action === 'insure') fields.stake = l.stake;
  if (stake !== undefined) fields.stake = stake;
  return fields;
}

// Prompt is the decision's section; run(op, fields) sends a command. Its
// onKey is the keyboard shortcuts' listener, for the page to add.
export class Prompt {
  // clock is the decision's countdown (status.js Clock), shown on the bar.
  constructor(state, run, clock = null) {
    this.state = state;
    this.run = run;
    this.clock = clock;
    this.room = undefined; // the most this player may stake now (careRefuses)
    this.sig = '';
    this.once = new Once(commandID);
    this.el = h('section', { class: 'prompt', 'aria-label': t('prompt.heading.playing'), hidden: true });
    // Keyboard shortcuts: the keys shown on the decision buttons.
    this.onKey = ev => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || isTyping()) return;
      const b = this.el.querySelector(`button[data-key="${CSS.escape(ev.key.toLowerCase())}"]`);
      if (b && !b.disabled) {
        ev.preventDefault();
        b.click();
      }
    };
  }

  // draw shows the decisions this player may make now, grouped by box and
  // hand; the focus stays where it was, else goes to the first decision.
  draw() {
    const state = this.state;
    this.once.at(decisionPoint(state));
    const all = state.myLegal();
    // What the player's limits refuse is not offered; he is told why.
    const legal = all.filter(l => !careRefuses(l.action, this.room, mainBet(state, l.box, l.hand || 1)?.stake || 0, doubleForLess(state)));
    const refused = [...new Set(all.filter(l => !legal.includes(l)).map(l => l.action))];
    const sig = JSON.stringify([legal, refused, refused.length ? this.room : 0, state.turn?.phase, state.turn?.box, state.turn?.hand, doubleForLess(state)]);
    if (sig === this.sig) return;
    this.sig = sig;
    this.el.hidden = legal.length === 0;
    if (!legal.length) {
      this.el.replaceChildren();
      return;
    }
    const phase = state.turn.phase;
    const kept = keepFocus(this.el, () => replace(this.el,
      h('div', { class: 'prompt-top' }, h('h2', { class: 'prompt-h' }, promptHeading(phase, state)), this.clock ? this.clock.el : null),
      promptGroups(legal).map((g, i) => this.row(phase, g.box, g.hand, g.legal, i === 0)),
      refused.length ? h('p', { class: 'prompt-care' }, t('prompt.careRefused', { what: refused.map(a => t('action.' + a).toLowerCase()).join(', '), room: money(this.room) })) : null));
    const page = this.el.closest('.table-page');
    if (!kept && !isTyping() && (document.activeElement === document.body || page?.contains(document.activeElement))) {
      this.el.querySelector('button')?.focus({ preventScroll: true });
    }
  }

  row(phase, box, hand, ls, keys) {
    const state = this.state;
    const text = promptText(state, phase, box, hand, ls);
    const row = `${box}-${hand}`;
    const busy = this.once.busyWith(row);
    const myMain = mainBet(state, box, hand);
    const buttons = [];
    let stakeInput = null;
    let insureField = null;
    let doubleField = null;
    for (const { legal: l, label, key, def } of promptButtons(phase, ls)) {
      const fk = `act-${box}-${hand}-${l.action}-${l.value || ''}`;
      let field = null;
      if (l.action === 'insure') {
        stakeInput = h('input', { type: 'text', inputmode: 'decimal', class: 'stake-input', id: `ins-${box}`, 'data-fk': `ins-${box}`, value: plainMoney(l.stake), autocomplete: 'off', 'aria-describedby': `ins-${box}-error`, 'aria-label': t('prompt.insureLabel', { box, max: money(l.stake) }) });
        field = insureField = this.stakeField(stakeInput, 'insurance', 1, l.stake, fk);
      }
      if (l.action === 'double' && doubleForLess(state) && myMain) {
        // VE-19: a double may stake less than the original (paid at its
        // amount) or more (the excess is neither paid nor lost).
        const max = state.table.rules.max_bet;
        const id = `dbl-${box}-${hand}`;
        const input = h('input', {
          type: 'text', inputmode: 'decimal', class: 'stake-input double-stake', id, autocomplete: 'off', 'data-fk': id,
          value: plainMoney(Math.min(myMain.stake, max)), 'aria-describedby': `${id}-range ${id}-error`,
        });
        field = doubleField = this.stakeField(input, 'double', 1, max, fk);
        field.el = h('div', { class: 'stake-field' },
          h('label', { class: 'stake-label', for: id }, t(phase === 'follow' ? 'prompt.yourDoubleStake' : 'prompt.doubleStake') + ' ', input),
          h('p', { class: 'stake-range', id: `${id}-range` },
            t('prompt.doubleRange', { min: money(1), max: money(max), stake: money(myMain.stake), step: money(state.table.rules.min_bet || 100) })),
          field.error);
      }
      buttons.push(h('button', {
        class: `act act-${l.action}`, 'data-fk': fk, 'data-key': keys ? key : null,
        'aria-keyshortcuts': keys && key ? key.toUpperCase() : null, disabled: busy,
        onclick: () => this.act(row, l, field),
      }, label, def ? h('small', { class: 'act-default' }, t('prompt.ifTimeRunsOut')) : null, keys && key ? h('kbd', { 'aria-hidden': 'true' }, key.toUpperCase()) : null));
    }
    if (declines(phase)) {
      buttons.push(h('button', { class: 'act act-decline', 'data-fk': `decline-${box}`, 'data-key': keys ? actionKey('decline') : null, 'aria-keyshortcuts': keys ? actionKey('decline').toUpperCase() : null, disabled: busy, onclick: () => this.send(row, 'decline', { box, hand }) },
        declineLabel(phase), keys ? h('kbd', { 'aria-hidden': 'true' }, actionKey('decline').toUpperCase()) : null));
    }
    return h('div', { class: 'prompt-row', role: 'group', 'aria-label': text, 'data-row': row, 'aria-busy': busy ? 'true' : null },
      h('p', { class: 'prompt-text' }, text),
      stakeInput ? h('label', { class: 'stake-label', for: stakeInput.id }, t('prompt.insuranceStake') + ' ', stakeInput) : null,
      insureField ? insureField.error : null,
      doubleField ? doubleField.el : null,
      h('div', { class: 'actions' }, buttons));
  }

  // act sends a decision, with the stake its field reads (if it has one):
  // none if the field refuses it.
  act(row, l, field) {
    if (this.once.busyWith(row)) return;
    let stake;
    if (field) {
      stake = field.read();
      if (stake === null) return;
    }
    this.send(row, 'act', actFields(l, stake));
  }

  // send sends a row's decision once (once.js): its buttons are locked
  // until the server answers; a refusal unlocks them for another choice.
  send(row, op, fields) {
    const lock = on => {
      const el = this.el.querySelector(`[data-row="${CSS.escape(row)}"]`);
      if (!el) return;
      if (on) el.setAttribute('aria-busy', 'true');
      else el.removeAttribute('aria-busy');
      for (const b of el.querySelectorAll('button')) b.disabled = on;
    };
    return this.once.send(row, async id => {
      lock(true);
      try {
        return await this.run(op, { ...fields, command_id: id });
      } finally {
        lock(false);
      }
    });
  }

  // stakeField reads a decision's stake from its input: an amount from min
  // to max (and within the balance), else a one-line error beside it, read
  // out, and nothing is sent. Enter decides; the arrow keys step the amount
  // by the table minimum.
  stakeField(input, what, min, max, fk) {
    const error = h('p', { class: 'stake-error', id: `${input.id}-error`, role: 'alert' });
    const step = this.state.table.rules.min_bet || 100;
    const clear = () => {
      error.textContent = '';
      input.removeAttribute('aria-invalid');
    };
    input.addEventListener('keydown', ev => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        this.el.querySelector(`[data-fk="${CSS.escape(fk)}"]`)?.click();
      } else if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') {
        ev.preventDefault();
        input.value = plainMoney(stepStake(input.value, ev.key === 'ArrowUp', min, max, step));
        clear();
      }
    });
    input.addEventListener('input', () => clear());
    return {
      input, error,
      read() {
        const v = checkStake(input.value, what, min, max, session.user?.wallet);
        if (v.error) {
          error.textContent = v.error;
          input.setAttribute('aria-invalid', 'true');
          input.focus();
          input.select();
          return null;
        }
        clear();
        return v.stake;
      },
    };
  }
}
