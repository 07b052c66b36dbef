// Betting: the rack of chips (one chosen, also with the arrow keys), a chip
// placed on a spot of the felt, this player's bets with a withdraw each,
// the balance, and leaving the table. The choices are pure functions;
// Betting draws them and sends the commands.

import { session } from './api.js';
import { h, replace, keepFocus, money, chipSet, chipClass, chipLabel } from './dom.js';

// pickChip is the chip chosen among a table's: the one chosen before if the
// table has it, else the second smallest (the only one, if alone).
export function pickChip(chips, chip) {
  return chips.includes(chip) ? chip : chips[Math.min(1, chips.length - 1)];
}

// chipAfterKey is the chip an arrow key moves the choice to (right and
// down to the larger, left and up to the smaller, stopping at the ends), or
// null for another key.
export function chipAfterKey(chips, chip, key) {
  const i = chips.indexOf(chip);
  if (key === 'ArrowRight' || key === 'ArrowDown') return chips[Math.min(chips.length - 1, i + 1)];
  if (key === 'ArrowLeft' || key === 'ArrowUp') return chips[Math.max(0, i - 1)];
  return null;
}

// nextStake is the stake a chip clicked on a spot asks for: the chip added
// to the stake shown or, if more, to the one last asked for (chips clicked
// faster than the server answers add up), within the table's maximum.
export function nextStake(shown, asked, chip, max) {
  return Math.min(Math.max(shown, asked || 0) + chip, max);
}

// forgetsAsked says whether an event ends the stakes asked for: the deal,
// or the player's own withdrawal, leaving or box given up (AR-21).
export function forgetsAsked(e, me) {
  return e.kind === 'deal' || (e.player === me && (e.kind === 'withdraw' || e.kind === 'leave' || e.kind === 'release'));
}

// The quick bets (issue 15): each is the list of commands it sends.

// lastStakes are a player's main stakes of the last round, by box.
export function lastStakes(round, me) {
  if (!round) return [];
  return round.bets.filter(b => b.player === me && b.kind === 'main' && (b.hand || 1) === 1).map(b => ({ box: b.box, stake: b.stake }));
}

// rebetPlan puts the last round's stakes back on the same spots, within
// the table's maximum.
export function rebetPlan(last, max) {
  return last.map(b => ({ op: 'bet', fields: { box: b.box, stake: Math.min(b.stake, max) } }));
}

// doublePlan doubles every stake the player has down, within the maximum.
export function doublePlan(mine, max) {
  return mine.filter(b => b.stake < max).map(b => ({ op: 'bet', fields: { box: b.box, stake: Math.min(2 * b.stake, max) } }));
}

// undoPlan takes back the last chip: its spot's stake as it was before it
// (withdrawn if it had none).
export function undoPlan(chips) {
  const c = chips[chips.length - 1];
  if (!c) return [];
  return [c.before > 0 ? { op: 'bet', fields: { box: c.box, stake: c.before } } : { op: 'withdraw', fields: { box: c.box } }];
}

// clearPlan withdraws every bet the player has down.
export function clearPlan(mine) {
  return mine.map(b => ({ op: 'withdraw', fields: { box: b.box } }));
}

// Betting is the betting section of table id; run(op, fields) sends a
// command and resolves with whether it was taken.
export class Betting {
  constructor(state, id, run) {
    this.state = state;
    this.id = id;
    this.run = run;
    this.chip = 0;
    this.sig = '';
    this.asked = new Map(); // box → the stake last asked for
    this.chips = []; // the chips placed this window, for Undo: {box, before}
    this.busy = false; // a quick bet on its way
    this.el = h('section', { class: 'betting', 'aria-label': 'Betting' });
  }

  // invalidate has the next draw draw again (the wallet changed).
  invalidate() {
    this.sig = '';
  }

  draw() {
    const state = this.state;
    const me = state.me;
    const t = state.table;
    const open = !!me && !state.inPlay() && !t.closed;
    const mine = t.bets.filter(b => b.player === me);
    const seats = state.seatedBoxes();
    const chips = chipSet(t.rules.min_bet, t.rules.max_bet);
    this.chip = pickChip(chips, this.chip);
    const chip = this.chip;
    const last = lastStakes(state.round, me);
    const max = t.rules.max_bet;
    const sig = JSON.stringify([open, mine, seats, chip, chips, !!me, session.user?.wallet, last, this.chips.length, this.busy]);
    if (sig === this.sig) return;
    this.sig = sig;
    keepFocus(this.el, () => {
      if (!me) {
        replace(this.el, h('p', {}, h('a', { href: `/login?next=/tables/${this.id}` }, 'Log in or register'), ' to take a seat.'));
        return;
      }
      const rack = h('div', { class: 'rack', role: 'radiogroup', 'aria-label': 'Chip to place' },
        chips.map(v => h('button', {
          class: `chip big ${chipClass(v)}${v === chip ? ' chosen' : ''}`, role: 'radio', 'aria-checked': String(v === chip),
          'data-fk': `chip-${v}`, 'aria-label': `chip of ${money(v)}`, disabled: !open,
          onclick: () => { this.chip = v; this.sig = ''; this.draw(); },
          onkeydown: ev => this.chipKeys(ev, chips),
        }, chipLabel(v))));
      const list = mine.length
        ? h('ul', { class: 'mybets' }, mine.map(b => h('li', {},
          `Box ${b.box}${state.holder(b.box) && state.holder(b.box) !== me ? ` (behind ${state.holder(b.box)})` : ''}: ${money(b.stake)} `,
          h('button', { class: 'link', 'data-fk': `withdraw-${b.box}`, onclick: () => this.run('withdraw', { box: b.box }), disabled: !open, 'aria-label': `Withdraw your bet on box ${b.box}` }, 'Withdraw'))))
        : h('p', { class: 'hint' }, open ? 'Choose a chip, then click your spot on the felt: each click adds the chip.' : 'Bets open when the round is over.');
      const quick = (label, fk, plan, why, kind = '') => h('button', {
        class: 'button small secondary quick', 'data-fk': fk, disabled: !open || this.busy || plan.length === 0,
        title: why, onclick: () => this.send(plan, kind),
      }, label);
      const quicks = open ? h('div', { class: 'quick-bets', role: 'group', 'aria-label': 'Quick bets' },
        quick('Re-bet', 'rebet', mine.length ? [] : rebetPlan(last, max), "The last round's stakes on the same spots"),
        quick('Double', 'double-bets', doublePlan(mine, max), 'Every stake you have down, doubled'),
        quick('Undo', 'undo', undoPlan(this.chips), 'Take back the last chip', 'undo'),
        quick('Clear', 'clear', clearPlan(mine), 'Withdraw every bet')) : null;
      replace(this.el,
        h('h2', { class: 'visually-hidden' }, 'Betting'),
        quicks,
        h('div', { class: 'bet-row' }, open ? rack : null, h('p', { class: 'wallet-line' }, 'Balance ', h('strong', { class: 'balance' }, money(session.user?.wallet || 0)))),
        list,
        seats.length || mine.length ? h('button', { class: 'leave', 'data-fk': 'leave', onclick: () => this.run('leave', {}) }, 'Leave the table') : null);
    });
  }

  chipKeys(ev, chips) {
    const next = chipAfterKey(chips, this.chip, ev.key);
    if (next === null) return;
    ev.preventDefault();
    this.chip = next;
    this.sig = '';
    this.draw();
    this.el.querySelector(`[data-fk="chip-${this.chip}"]`)?.focus();
  }

  // placeChip adds the chosen chip to this player's bet on a box.
  placeChip(box) {
    if (this.busy) return;
    const me = this.state.me;
    const shown = this.state.table.bets.find(b => b.player === me && b.box === box)?.stake || 0;
    const before = Math.max(shown, this.asked.get(box) || 0);
    const stake = nextStake(shown, this.asked.get(box), this.chip, this.state.table.rules.max_bet);
    if (stake === before) return; // at the maximum already
    this.asked.set(box, stake);
    const chip = { box, before };
    this.chips.push(chip);
    this.run('bet', { box, stake }).then(ok => {
      if (!ok) {
        this.asked.delete(box);
        this.chips = this.chips.filter(c => c !== chip);
      }
      this.sig = '';
      this.draw();
    });
  }

  // send sends a quick bet's commands one after the other, the buttons
  // locked until the last is answered: a double-click sends them once.
  // Undo takes its chip off the list; the others start a new list.
  async send(plan, kind = '') {
    if (this.busy || !plan.length) return;
    const undone = this.chips[this.chips.length - 1];
    this.busy = true;
    this.sig = '';
    this.draw();
    let ok = true;
    try {
      for (const c of plan) {
        ok = await this.run(c.op, c.fields);
        if (!ok) break; // refused (the balance, a spot no longer open): the reason is shown
        if (c.op === 'bet') this.asked.set(c.fields.box, c.fields.stake);
        else this.asked.delete(c.fields.box);
      }
      if (kind === 'undo') {
        if (ok) this.chips = this.chips.filter(c => c !== undone);
      } else this.chips = [];
    } finally {
      this.busy = false;
      this.sig = '';
      this.draw();
    }
  }

  // seen follows the table's events: the stakes asked for end with the deal
  // or this player's withdrawal or leaving.
  seen(e) {
    if (e.kind === 'withdraw' && e.player === this.state.me) {
      // One spot's bet withdrawn: its chips are gone, the others stay.
      this.asked.delete(e.box);
      this.chips = this.chips.filter(c => c.box !== e.box);
    } else if (forgetsAsked(e, this.state.me)) {
      this.asked.clear();
      this.chips = [];
    }
  }
}
