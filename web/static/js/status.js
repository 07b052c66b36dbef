// The table's status: whose turn it is and what happens when time runs out,
// the time left (a bar here, on the box in turn, and the clocks on the
// decision bar and the chip tray), the connection, and
// the dealer's calls (a log, and read out to screen readers). What it says
// is worked out from a TableState by pure functions; the classes draw it.

import { h } from './dom.js';
import { inWindow, tenUp, waitingText, waitRule } from './state.js';
import { t as tr, refusal, has } from './i18n.js';

// phaseName is a round's phase as the status names it (the engine's
// phases; one it does not know as it is). The insurance window under a ten
// is even money alone (VE-16): it is called so.
export function phaseName(phase, state) {
  if (phase === 'insurance' && state && evenMoneyOnly(state)) return tr('status.phase.evenMoney');
  return has('status.phase.' + phase) ? tr('status.phase.' + phase) : phase;
}

// evenMoneyOnly says whether the insurance window open now is even money
// alone: the dealer shows a ten, and insurance is offered under an Ace only
// (VE-15; VE-16's even money under a ten).
export function evenMoneyOnly(state) {
  return tenUp(state.round);
}

// duration words a length of time in ms as the page says it: "30
// seconds", "2 minutes", "1 min 30 s" (the server's settings).
export function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return tr('time.seconds', { n: s });
  const m = Math.floor(s / 60);
  return s % 60 ? tr('time.minSeconds', { m, n: s % 60 }) : tr('time.minutes', { n: m });
}

// defaultName is what the server does when time runs out, in the page's
// language where it is a decision's name ("stand"), else as it is.
function defaultName(d, phase) {
  if (!d) return tr('status.theDefault');
  if (phase === 'ace-choice' && d === 'close') return tr('prompt.aceCounts', { n: 11 }).toLowerCase(); // VE-13: the Ace stays 11
  const key = d === 'close' ? 'action.decline' : 'action.' + d; // a window closes: no, thanks
  return has(key) ? tr(key).toLowerCase() : d;
}

// deadline is when the time the table waits for runs out, and how long it
// was: {at, total} in ms, or null.
export function deadline(state) {
  const r = state.table.rules;
  if (state.turn?.deadline) return { at: state.turn.deadline, total: inWindow(state.turn.phase) ? r.window_ms : r.decision_ms };
  if (!state.inPlay() && state.bettingDeadline) return { at: state.bettingDeadline, total: r.bet_window_ms };
  return null;
}

// statusLine is the status at time now (ms): its text; the time left in
// whole seconds (left) and as a share (frac, null without a deadline); the
// box in turn and the share of its time left, for its own timer (boxFrac,
// null without one).
export function statusLine(state, now) {
  const t = state.table;
  const me = state.me;
  const d = deadline(state);
  const left = d ? Math.max(0, Math.ceil((d.at - now) / 1000)) : 0;
  let text;
  if (t.closed) text = tr('status.closed', { why: t.closed });
  else if (state.inPlay()) {
    const tn = state.turn;
    if (!tn) text = tr('status.dealing');
    else if (tn.players.includes(me)) text = tr(tn.box ? 'status.yourDecisionOn' : 'status.yourDecision', { hand: tn.box ? state.label(tn.box, tn.hand || 1) : '', left, def: defaultName(tn.default, tn.phase) });
    else text = tr('status.waitingFor', { phase: phaseName(tn.phase, state), who: tn.players.join(', ') || tr('status.theDealer'), where: tn.box ? ' (' + state.label(tn.box, tn.hand || 1) + ')' : '', left });
  } else if (state.bettingDeadline) text = tr('status.placeBets', { left }) + (state.waiting ? ' ' + waitingText(state.waiting, t.bets) : '');
  else if (state.waiting && t.bets.length) {
    // AR-03, VE-20: the bets placed cannot be dealt yet; how
    // long they stay is the server's AR-21 stand-by, in its own unit.
    text = tr('status.waiting', { why: waitingText(state.waiting, t.bets) });
    if (t.bets.some(b => b.player === me) && t.rules.seat_idle_ms > 0) text += ' ' + tr('status.waitingReturn', { wait: duration(t.rules.seat_idle_ms), rule: waitRule(t.profile) });
  }
  else if (!me) text = tr('status.login');
  else if (state.seatedBoxes().length) text = tr('status.chooseChip');
  else text = tr(t.rules.back_bets_per_box ? 'status.takeSeatBack' : 'status.takeSeat');
  return {
    text,
    left,
    frac: d ? Math.max(0, Math.min(1, (d.at - now) / d.total)) : null,
    box: state.boxTurn()?.box || 0,
    boxFrac: d && state.turn ? (d.at - now) / d.total : null,
  };
}

// Clock is a countdown shown where the player acts: the seconds
// left and a bar, on the decision bar and the chip tray; the status keeps
// it in step.
export class Clock {
  constructor(kind) {
    this.secs = h('strong', { class: 'clock-secs' });
    this.bar = h('div', { class: 'timer' }, h('span'));
    this.el = h('div', { class: `clock clock-${kind}`, role: 'timer', 'aria-label': tr(kind === 'bets' ? 'status.betTimerLabel' : 'status.timerLabel'), hidden: true }, this.secs, this.bar);
  }

  draw(s) {
    this.el.hidden = s.frac === null;
    if (s.frac === null) return;
    const txt = tr('status.secondsShort', { n: s.left });
    if (this.secs.textContent !== txt) this.secs.textContent = txt;
    this.bar.firstChild.style.width = `${s.frac * 100}%`;
    this.el.classList.toggle('low', s.frac < 0.25);
    this.el.setAttribute('aria-valuetext', tr('status.secondsLeft', { n: s.left }));
  }
}

// Status is the status line and its timer; the felt shows the box's, and
// each Clock made by clock() the same time left. frozen (ms) holds the
// time as it was when the connection was lost: nothing runs out on a page
// that cannot hear the table.
export class Status {
  // say(text, assertive) reads a line out (ui.js announce).
  constructor(state, felt, say = () => {}) {
    this.state = state;
    this.felt = felt;
    this.say = say;
    this.frozen = 0;
    this.clocks = [];
    this.text = h('p', { class: 'status-text', id: 'status-text' });
    this.timer = h('div', { class: 'timer', role: 'timer', 'aria-label': tr('status.timerLabel') }, h('span'));
    this.el = h('div', { class: 'status' }, this.text, this.timer);
  }

  // line makes a copy of the status line, kept in step with it: the chip
  // tray shows it where the player bets.
  line() {
    const l = h('p', { class: 'status-line', 'aria-hidden': 'true' });
    this.lines = [...(this.lines || []), l];
    return l;
  }

  // clock makes a countdown kept in step with the status.
  clock(kind) {
    const c = new Clock(kind);
    this.clocks.push(c);
    return c;
  }

  // draw shows the status now: on every change, and as the time runs.
  draw(now = this.frozen || Date.now()) {
    const s = statusLine(this.state, now);
    if (this.text.textContent !== s.text) this.text.textContent = s.text;
    for (const l of this.lines || []) if (l.textContent !== s.text) l.textContent = s.text;
    this.timer.hidden = s.frac === null;
    if (s.frac !== null) {
      this.timer.firstChild.style.width = `${s.frac * 100}%`;
      this.timer.classList.toggle('low', s.frac < 0.25);
      this.timer.setAttribute('aria-valuetext', tr('status.secondsLeft', { n: s.left }));
    }
    for (const c of this.clocks) c.draw(s);
    // The last seconds of this player's decision are read out, once each:
    // at 10 s and at 5 s (the timer itself is not a live region).
    const tn = this.state.inPlay() && this.state.turn;
    if (tn && this.state.me && tn.players.includes(this.state.me) && (s.left === 10 || s.left === 5) && !this.frozen) {
      const key = `${tn.phase}-${tn.box}-${tn.hand}-${s.left}-${this.state.round?.id}`;
      if (key !== this.told) {
        this.told = key;
        this.say(tr('status.lastSeconds', { n: s.left, def: defaultName(tn.default, tn.phase) }), true);
      }
    }
    this.felt.setTimer(s.box, s.boxFrac);
  }
}

// Connection shows the table's feed: live, connecting, logged out, or
// watching (without a session); and the epoch it follows.
export class Connection {
  constructor() {
    this.el = h('span', { class: 'conn', role: 'status' });
  }

  show(st) {
    this.el.textContent = has('conn.' + st) ? tr('conn.' + st) : st;
    this.el.className = 'conn ' + st;
  }

  setEpoch(epoch) {
    this.el.dataset.epoch = epoch || '';
  }
}

// Calls is the log of the dealer's calls, the latest first: each call
// (from TableState.apply) is written there and, unless it is only
// information, read out, at once if it is an alert or concerns this player.
export class Calls {
  // announce(text, assertive) reads a line out (ui.js).
  constructor(announce, keep = 60) {
    this.announce = announce;
    this.keep = keep;
    this.el = h('ol', { class: 'calls', 'aria-label': tr('table.callsLabel') });
  }

  say(s) {
    this.el.prepend(h('li', { class: 'call call-' + s.kind }, s.text));
    while (this.el.children.length > this.keep) this.el.lastChild.remove();
    if (s.kind !== 'info') this.announce(s.speech, s.kind === 'alert' || s.kind === 'me');
  }
}
