// Betting: the rack of chips (one chosen, also with the arrow keys), a chip
// placed on a spot of the felt, this player's bets with a withdraw each,
// the balance, and leaving the table. The choices are pure functions;
// Betting draws them and sends the commands.

import { session, commandID } from './api.js';
import { Once } from './once.js';
import { t as tr } from './i18n.js';
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

// ---- re-bet, double, undo, clear ----
//
// A view of the spots is {me, seats: [{box, player}], bets: [{player, box,
// stake}] (the bets for the next round), minBet, maxBet, backBetsPerBox, perBox (the
// maximum binds a box's stakes together: max_bet_scope=box, ES-03)}. A plan
// is {bets: [{box, stake}]} (the stakes to ask for, each a bet command) or
// {reason} (nothing is sent).

// roomOn is the most this player may stake on box now: {max}, or {reason}
// why the spot is not open to him (not his box and no back betting there).
export function roomOn(v, box) {
  const holder = v.seats.find(s => s.box === box)?.player || '';
  if (holder !== v.me) {
    if (!holder) return { reason: tr('plan.notYours', { box }) };
    if (!v.backBetsPerBox) return { reason: tr('plan.noBackBets', { box, holder }) };
    const behind = new Set(v.bets.filter(b => b.box === box && b.player !== holder).map(b => b.player));
    if (!behind.has(v.me) && behind.size >= v.backBetsPerBox) return { reason: tr('plan.backBetsFull', { box }) };
  }
  let max = v.maxBet;
  if (v.perBox) for (const b of v.bets) if (b.box === box && b.player !== v.me) max -= b.stake;
  if (max <= 0) return { reason: tr('plan.atMaximum', { box }) };
  return { max };
}

function stakeOf(v, box) {
  return v.bets.find(b => b.player === v.me && b.box === box)?.stake || 0;
}

// rebetPlan is the last round's stakes on the same spots: refused whole if
// a spot is no longer open, a stake is over its room now, or the balance
// does not cover them. Only with no bet of this player on the table.
export function rebetPlan(v, last, balance) {
  if (!last || !last.length) return { reason: tr('plan.noRebet') };
  if (v.bets.some(b => b.player === v.me)) return { reason: tr('plan.alreadyBet') };
  let total = 0;
  for (const l of last) {
    const room = roomOn(v, l.box);
    if (room.reason) return { reason: tr('plan.rebetNo', { why: room.reason }) };
    if (l.stake > room.max) return { reason: tr('plan.rebetOver', { box: l.box, max: money(room.max) }) };
    if (l.stake < (v.minBet || 0)) return { reason: tr('plan.rebetUnder', { min: money(v.minBet) }) };
    total += l.stake;
  }
  if (total > balance) return { reason: tr('plan.rebetFunds'), need: total };
  return { bets: last.map(l => ({ box: l.box, stake: l.stake })) };
}

// doublePlan doubles each of this player's stakes on the table, each within
// its room; refused if none can grow or the balance does not cover it.
export function doublePlan(v, balance) {
  const mine = v.bets.filter(b => b.player === v.me);
  if (!mine.length) return { reason: tr('plan.noDouble') };
  const bets = [];
  let more = 0;
  for (const b of mine) {
    const room = roomOn(v, b.box);
    const stake = Math.min(2 * b.stake, room.max || 0);
    if (stake > b.stake) {
      bets.push({ box: b.box, stake });
      more += stake - b.stake;
    }
  }
  if (!bets.length) return { reason: tr('plan.allAtMaximum') };
  if (more > balance) return { reason: tr('plan.doubleFunds'), need: more };
  return { bets };
}

// undoPlan takes back the last change of the stakes (a chip, a re-bet, a
// double): entry is [{box, before, after}]; each box goes back to before
// (a withdrawal at 0). Refused if the stakes are no longer those it left.
export function undoPlan(v, entry) {
  if (!entry) return { reason: tr('plan.noUndo') };
  if (entry.some(e => stakeOf(v, e.box) !== e.after)) return { reason: tr('plan.changed') };
  return { bets: entry.map(e => ({ box: e.box, stake: e.before })) };
}

// clearPlan withdraws every bet of this player.
export function clearPlan(v) {
  const mine = v.bets.filter(b => b.player === v.me);
  if (!mine.length) return { reason: tr('plan.noClear') };
  return { bets: mine.map(b => ({ box: b.box, stake: 0 })) };
}

// commandsOf is a plan's commands: a bet, or a withdrawal for a stake of 0.
export function commandsOf(plan) {
  return (plan.bets || []).map(b => (b.stake > 0 ? { op: 'bet', box: b.box, stake: b.stake } : { op: 'withdraw', box: b.box }));
}

// lastStakes is a player's main stakes in a round, by box ({box, stake}),
// from a round's bets ({player, box, kind, stake}; kind absent: main).
export function lastStakes(bets, me) {
  const out = [];
  for (const b of bets) {
    if (b.player !== undefined && b.player !== me) continue;
    if (b.kind && b.kind !== 'main') continue;
    if (!out.some(o => o.box === b.box)) out.push({ box: b.box, stake: b.stake });
  }
  return out;
}

// Betting is the betting section of table id; run(op, fields) sends a
// command and resolves with whether it was taken.
export class Betting {
  // clock is the betting window's countdown (status.js Clock), on the tray.
  // line is the status line's copy (status.js Status.line), on the tray.
  constructor(state, id, run, clock = null, line = null) {
    this.state = state;
    this.id = id;
    this.run = run;
    this.clock = clock;
    this.line = line;
    this.chip = 0;
    this.sig = '';
    this.asked = new Map(); // box → the stake last asked for
    this.undo = []; // the changes of this betting window, the last at the end: [{box, before, after}]
    this.last = []; // the last round's stakes: [{box, stake}]
    this.once = new Once(commandID);
    this.pending = 0; // the buttons' commands on their way
    this.chipsOut = 0; // the chips' commands on their way
    this.el = h('section', { class: 'betting', 'aria-label': tr('bets.heading') });
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
    // A repeated click goes with the same command IDs until the page shows
    // what the first changed (once.js).
    this.once.at(JSON.stringify(mine));
    const v = this.view();
    // Each change is noted when sent (and taken back if refused); with
    // nothing on its way, one the stakes no longer show (the server
    // returned a bet) ends the undo there.
    if (!this.pending && !this.chipsOut) while (this.undo.length && undoPlan(v, this.undo.at(-1)).reason) this.undo.pop();
    const balance = session.user?.wallet || 0;
    const plans = open ? {
      undo: undoPlan(v, this.undo.at(-1)),
      clear: clearPlan(v),
      rebet: rebetPlan(v, this.last, balance),
      double: doublePlan(v, balance),
    } : null;
    // "Deal": the player has placed his bets; where the table keeps its
    // window, it ends when every seated player has said so.
    const ready = (t.ready || []).includes(me);
    const canDeal = open && !!t.keep_bet_window && seats.length > 0 && mine.length > 0;
    const sig = JSON.stringify([open, mine, seats, chip, chips, !!me, session.user?.wallet, plans, this.last, this.pending > 0, ready, canDeal]);
    if (sig === this.sig) return;
    this.sig = sig;
    this.el.classList.toggle('open', open && !!me);
    const dropped = !document.activeElement || document.activeElement === document.body;
    keepFocus(this.el, () => {
      if (!me) {
        replace(this.el, h('p', {}, h('a', { href: `/login?next=/tables/${this.id}` }, tr('lobby.loginLink')), tr('bets.toSit')));
        return;
      }
      const rack = h('div', { class: 'rack', role: 'radiogroup', 'aria-label': tr('bets.rack') },
        chips.map(v => h('button', {
          class: `chip big ${chipClass(v)}${v === chip ? ' chosen' : ''}`, role: 'radio', 'aria-checked': String(v === chip),
          'data-fk': `chip-${v}`, 'aria-label': tr('bets.chip', { amount: money(v) }), disabled: !open,
          onclick: () => { this.chip = v; this.sig = ''; this.draw(); },
          onkeydown: ev => this.chipKeys(ev, chips),
        }, chipLabel(v))));
      const list = mine.length
        ? h('ul', { class: 'mybets' }, mine.map(b => h('li', {},
          (state.holder(b.box) && state.holder(b.box) !== me ? tr('bets.mineBehind', { box: b.box, holder: state.holder(b.box), stake: money(b.stake) }) : tr('bets.mine', { box: b.box, stake: money(b.stake) })) + ' ',
          h('button', { class: 'link', 'data-fk': `withdraw-${b.box}`, onclick: () => this.run('withdraw', { box: b.box }), disabled: !open, 'aria-label': tr('bets.withdrawLabel', { box: b.box }) }, tr('bets.withdraw')))))
        : h('p', { class: 'hint' }, tr(open ? 'bets.hintOpen' : 'bets.hintClosed'));
      const button = (key, label, hint) => h('button', {
        class: `bet-action ${key}`, 'data-fk': `bet-${key}`, disabled: !!plans[key].reason || this.pending > 0,
        'aria-busy': this.pending > 0 ? 'true' : null,
        title: plans[key].reason || hint, onclick: ev => this.act(key, ev),
      }, label);
      // Shown to a player with something to bet on or to repeat.
      const actions = open && (seats.length || mine.length || this.last.length) ? h('div', { class: 'bet-actions', role: 'group', 'aria-label': tr('bets.group') },
        button('undo', tr('bets.undo'), tr('bets.undoHint')),
        button('clear', tr('bets.clear'), tr('bets.clearHint')),
        button('rebet', tr('bets.rebet'), tr('bets.rebetHint')),
        button('double', tr('bets.double'), tr('bets.doubleHint')),
        canDeal ? h('button', {
          class: 'bet-action deal primary', 'data-fk': 'bet-deal', disabled: ready || this.chipsOut > 0 || this.pending > 0,
          'aria-pressed': String(ready), title: tr(ready ? 'bets.dealWaiting' : 'bets.dealHint'), onclick: () => this.deal(),
        }, tr(ready ? 'bets.dealt' : 'bets.deal')) : null) : null;
      // Why the last round's bets cannot be placed again, when that is what
      // the player would do (no bet of his on the table yet).
      const why = open && this.last.length && !mine.length && plans.rebet.reason
        ? h('p', { class: 'hint rebet-why' }, plans.rebet.reason) : null;
      // The tray: the chips, the time left to bet, re-bet and the rest; on
      // a phone it is held at the foot of the screen while betting is open.
      replace(this.el,
        h('h2', { class: 'visually-hidden' }, tr('bets.heading')),
        h('div', { class: 'bet-tray' },
          open && (this.line || this.clock) ? h('div', { class: 'tray-top' }, open && this.line ? this.line : null, open && this.clock ? this.clock.el : null) : null,
          h('div', { class: 'bet-row' }, open ? rack : null, h('p', { class: 'wallet-line' }, tr('page.balance'), h('strong', { class: 'balance' }, money(session.user?.wallet || 0)))),
          actions),
        why,
        list,
        seats.length || mine.length ? h('button', { class: 'leave', 'data-fk': 'leave', onclick: () => this.run('leave', {}) }, tr('reality.leave')) : null);
    });
    // The focus goes where the next action is: to the chip chosen once a
    // player sits, and when a new betting window opens after a round,
    // where it fell to the page (the Sit button or the decision gone).
    const seatedOpen = open && seats.length > 0;
    if (!seatedOpen) this.focused = false;
    else if (!this.focused && (dropped || !document.activeElement || document.activeElement === document.body)) {
      this.focused = true;
      this.el.querySelector('.rack .chip.chosen')?.focus({ preventScroll: true });
    }
  }

  // deal says this player has placed his bets (the server's "deal").
  deal() {
    this.pending++;
    this.sig = '';
    this.draw();
    return this.run('deal', {}).finally(() => { this.pending--; this.sig = ''; this.draw(); });
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

  // view is the spots as the plans read them (roomOn).
  view() {
    const t = this.state.table;
    return {
      me: this.state.me, seats: t.seats, bets: t.bets, minBet: t.rules.min_bet, maxBet: t.rules.max_bet,
      backBetsPerBox: t.rules.back_bets_per_box || 0, perBox: this.state.values?.max_bet_scope === 'box',
    };
  }

  // placeChip adds the chosen chip to this player's bet on a box.
  placeChip(box) {
    const me = this.state.me;
    const shown = this.state.table.bets.find(b => b.player === me && b.box === box)?.stake || 0;
    const before = Math.max(shown, this.asked.get(box) || 0);
    const stake = nextStake(shown, this.asked.get(box), this.chip, this.state.table.rules.max_bet);
    if (stake === before) return;
    this.asked.set(box, stake);
    const entry = [{ box, before, after: stake }];
    this.undo.push(entry);
    this.chipsOut++;
    this.run('bet', { box, stake }).then(ok => {
      this.chipsOut--;
      if (!ok) {
        this.asked.delete(box);
        this.undo = this.undo.filter(x => x !== entry);
      }
      this.sig = '';
      this.draw();
    });
  }

  // act sends the commands of one of the buttons (undo, clear, rebet,
  // double) once, however often it is clicked: a click while they are on
  // their way is dropped, one after the answer but before the page shows it
  // goes with the same command IDs (the server answers "duplicate").
  async act(key, ev) {
    if (ev && ev.detail > 1 && (key === 'rebet' || key === 'double')) return; // the second click of a double-click
    const v = this.view();
    const balance = session.user?.wallet || 0;
    const plan = key === 'undo' ? undoPlan(v, this.undo.at(-1))
      : key === 'clear' ? clearPlan(v)
        : key === 'rebet' ? rebetPlan(v, this.last, balance) : doublePlan(v, balance);
    if (plan.reason) return; // its button is disabled with the reason as its title
    const me = this.state.me;
    const before = new Map(v.bets.filter(b => b.player === me).map(b => [b.box, b.stake]));
    const cmds = commandsOf(plan);
    const done = [];
    // The change is noted as it is sent: undo's taken off the list, a
    // re-bet's or a double's put on it (set right after the answers).
    const top = this.undo.at(-1);
    const kept = this.undo;
    let entry = null;
    if (key === 'undo') this.undo = this.undo.slice(0, -1);
    else if (key === 'clear') this.undo = [];
    else {
      entry = plan.bets.map(b => ({ box: b.box, before: before.get(b.box) || 0, after: b.stake }));
      this.undo = [...this.undo, entry];
    }
    // The buttons lock until the answers (a click meanwhile sends nothing).
    this.pending++;
    this.sig = '';
    this.draw();
    const ok = await this.once.send(key, async id => {
      const res = await Promise.all(cmds.map((c, i) => this.run(c.op, { box: c.box, ...(c.op === 'bet' ? { stake: c.stake } : {}), command_id: `${id}-${i}` })));
      res.forEach((r, i) => { if (r) done.push(cmds[i]); });
      return res.every(Boolean);
    }).finally(() => { this.pending--; });
    if (ok === null) { // on its way already: nothing changed
      this.undo = kept;
      this.sig = '';
      this.draw();
      return;
    }
    for (const c of done) this.asked.delete(c.box);
    if (!ok) {
      if (key === 'undo' && !done.length) this.undo = [...this.undo, top];
      else if (entry) {
        const part = entry.filter(e => done.some(c => c.box === e.box));
        this.undo = this.undo.filter(x => x !== entry);
        if (part.length) this.undo.push(part);
      }
    }
    this.sig = '';
    this.draw();
  }

  // remember sets the last round's stakes, unless one is known already.
  remember(stakes, force = false) {
    if (!stakes.length || (this.last.length && !force)) return;
    this.last = stakes;
    this.sig = '';
  }

  // seen follows the table's events: the stakes asked for end with the deal
  // or this player's withdrawal or leaving; the changes to undo with the
  // deal or leaving; a round this player bet in is the one to repeat.
  seen(e) {
    const me = this.state.me;
    if (forgetsAsked(e, me)) this.asked.clear();
    if (e.kind === 'deal' || (e.kind === 'leave' && e.player === me)) this.undo = [];
    if (e.kind === 'settle' && this.state.round) this.remember(lastStakes(this.state.round.bets, me), true);
  }
}
