// A table's state as this client knows it: the last snapshot with every
// event since applied in order (docs/protocol.md), and what the dealer says
// about each, worded in the page's language from the events' codes and
// values (i18n.js). It knows nothing of the page; the live table and the
// replay both draw it.

import { Count } from './count.js';
import { HIDDEN, cardName, cardShort, money } from './dom.js';
import { t as tr, refusal, sentence } from './i18n.js';

// Hand is a box's hand, or the dealer's, as shown: a face-down card is
// HIDDEN and no total counts it.
export class Hand {
  constructor() {
    this.cards = [];
    this.faceDown = -1;
    this.shown = new Count();
    this.split = false;
    this.doubled = false;
    this.result = '';
    this.fixed = null; // a total from a snapshot, until the next card
    this.fresh = -1; // the index of the card just dealt (drawn with a deal animation)
    // The dealer's hand under dealer_ace=stays-one (AR-13): an Ace he
    // counts 1 when he draws stays 1 (TableState.setValues sets it).
    this.staysOne = false;
  }

  // count is the hand's count as the dealer announces it: the cards shown
  // in the order they came, the dealer's by his reading of AR-13.
  count() {
    if (!this.staysOne) return this.shown;
    const c = new Count();
    for (const x of this.cards) if (x !== HIDDEN) c.dealerAdd(x, true);
    return c;
  }

  static fromView(hv) {
    const h = new Hand();
    for (const c of hv.cards || []) h.add(c, c === HIDDEN);
    h.fresh = -1;
    h.result = hv.result || '';
    if (hv.total !== undefined && hv.total !== h.shown.total() && h.shown.aces > 0) {
      // The hand declared its Ace (AR-11, VE-13): the snapshot's total says how.
      h.shown.declare(hv.total === h.shown.hard + 10 ? 11 : 1);
    }
    return h;
  }

  // takeBack removes the last card: the dealer took it back before anyone
  // acted on it (a physical shoe's misread, docs/live.md).
  takeBack() {
    const keep = this.cards.slice(0, -1);
    const down = this.faceDown;
    this.cards = [];
    this.faceDown = -1;
    this.shown = new Count();
    this.fixed = null;
    keep.forEach((c, i) => this.add(c, i === down));
    this.fresh = -1;
  }

  add(code, faceDown = false) {
    this.fresh = this.cards.length;
    if (faceDown || !code || code === HIDDEN) {
      this.faceDown = this.cards.length;
      this.cards.push(HIDDEN);
    } else {
      this.cards.push(code);
      this.shown.add(code);
    }
  }

  reveal(code) {
    if (this.faceDown < 0) return;
    this.cards[this.faceDown] = code;
    this.shown.add(code);
    this.fresh = this.faceDown;
    this.faceDown = -1;
  }

  declare(v) {
    this.shown.declare(v);
  }

  total() {
    return this.count().total();
  }

  blackjack() {
    return !this.split && this.faceDown < 0 && this.shown.twoCard21();
  }

  // playerTotal is the total the dealer announces for a player's hand
  // (AR-12): a face-down double card (AR-17) leaves it open.
  playerTotal() {
    const c = this.shown;
    if (c.n === 0) return '';
    const t = c.total();
    if (this.faceDown >= 0) return `${t} + ?`;
    if (c.bust()) return tr('total.bust', { n: t });
    if (this.blackjack()) return tr('total.blackjack');
    if (c.soft() && t < 21) return tr('total.soft', { n: t });
    return String(t);
  }

  // dealerTotal is the dealer's own total as announced (AR-13: an Ace
  // counts 11 only when that makes 17 to 21; a lone Ace is "Ace").
  dealerTotal() {
    const c = this.count();
    if (c.n === 0) return '';
    if (c.bust()) return tr('total.bust', { n: c.total() });
    if (this.faceDown < 0 && c.twoCard21()) return tr('total.blackjack');
    if (c.n === 1 && c.aces === 1) return tr('total.ace');
    return String(c.announced());
  }
}

// Round is the round in play or last played.
export class Round {
  constructor(no, id, test) {
    this.no = no;
    this.id = id;
    this.test = !!test;
    this.phase = 'dealing';
    this.void = '';
    this.dealer = new Hand();
    this.boxes = new Map(); // box → [Hand]
    this.bets = []; // {player, box, hand, kind, stake, result, net}
    this.holders = new Map(); // box → its holder this round
    this.settled = false;
    this.net = null;
    this.cutCard = false;
    this.followKind = '';
  }

  static fromView(tableID, rv) {
    const r = new Round(rv.no, rv.id, rv.test);
    r.phase = rv.phase;
    r.void = rv.void || '';
    r.dealer = Hand.fromView(rv.dealer || { cards: [] });
    for (const hv of rv.hands || []) {
      const hs = r.handsOf(hv.box);
      hs[hv.hand - 1] = Hand.fromView(hv);
      if (hv.holder) r.holders.set(hv.box, hv.holder);
    }
    for (const [, hs] of r.boxes) {
      for (let i = 0; i < hs.length; i++) {
        if (!hs[i]) hs[i] = new Hand();
        if (hs.length > 1) hs[i].split = true;
      }
    }
    r.bets = (rv.bets || []).map(b => ({ ...b, result: b.result || '', net: b.net || 0 }));
    for (const b of r.bets) if (b.kind === 'double') r.hand(b.box, b.hand || 1).doubled = true;
    r.settled = rv.phase === 'done';
    if (r.settled) {
      r.net = {};
      for (const b of r.bets) r.net[b.player] = (r.net[b.player] || 0) + (b.net || 0);
    }
    return r;
  }

  handsOf(box) {
    let hs = this.boxes.get(box);
    if (!hs) {
      hs = [];
      this.boxes.set(box, hs);
    }
    return hs;
  }

  hand(box, hand = 1) {
    const hs = this.handsOf(box);
    while (hs.length < hand) hs.push(new Hand());
    return hs[hand - 1];
  }

  // split mirrors the engine: the hand keeps its first card, a new hand
  // numbered after the box's last takes the second.
  split(box, hand) {
    const hs = this.handsOf(box);
    const h = this.hand(box, hand);
    if (h.cards.length !== 2) return;
    const a = new Hand();
    const b = new Hand();
    a.split = b.split = true;
    a.add(h.cards[0]);
    b.add(h.cards[1]);
    a.fresh = b.fresh = -1;
    hs[hand - 1] = a;
    hs.push(b);
  }

}

// The actions the dealer calls by name: call.hit, call.stand, … and with
// the timeout's prefix.
const ACTION_CALLS = new Set(['hit', 'stand', 'double', 'split', 'surrender']);

// The windows the dealer announces: window.insurance, …
const WINDOW_CALLS = new Set(['insurance', 'challenge', 'ace-choice']);

// followRule cites the rule that lets back bettors follow the box holder's
// split or double, of the table's own regulation (a Spanish table
// cited the Venetian VE-11, VE-12); a reference profile cites none.
export function followRule(profile) {
  const rule = { venice: 'VE-11, VE-12', spain: 'ES-03', family: 'ES-03' }[profile];
  return rule ? ` (${rule})` : '';
}

// waitRule is the rule a table's stand-by of bets that cannot be dealt
// cites, as followRule: AR-21 is Argentina's; elsewhere the wait is the
// house's setting and cites nothing.
export function waitRule(profile) {
  return profile === 'argentina' ? ' (AR-21)' : '';
}

// inWindow says whether a phase is an optional window (insurance, the
// challenge, following the box holder, the Ace on a split ten): it has its
// own time (window_ms) and may be declined.

export function inWindow(phase) {
  return phase === 'insurance' || phase === 'challenge' || phase === 'follow' || phase === 'ace-choice';
}

// tableNeeds is what a table needs to deal, from its rules, as catalogue
// keys and values: AR-03's seated players betting, VE-20's boxes of a lone
// customer; none where one player is enough.
export function tableNeeds(rules = {}) {
  const needs = [];
  if (rules.min_bets_to_start > 1) needs.push(['needs.players', { need: rules.min_bets_to_start, rule: 'AR-03' }]);
  if (rules.lone_customer_boxes > 1) needs.push(['needs.loneBoxes', { need: rules.lone_customer_boxes, rule: 'VE-20' }]);
  return needs;
}

// tenUp says whether the dealer's up card is a ten-value.
export function tenUp(r) {
  const up = r?.dealer.cards[0];
  return !!up && /^[TJQK]/.test(up);
}

// evenCall says a round that nets 0 as it happened: what was won
// and what was lost when something was, else the stakes returned (a push).
export function evenCall(bets) {
  const won = bets.filter(b => b.net > 0).reduce((s, b) => s + b.net, 0);
  const lost = bets.filter(b => b.net < 0).reduce((s, b) => s - b.net, 0);
  if (won || lost) return tr('call.wonLost', { won: money(won), lost: money(lost) });
  return tr('call.breakEven');
}

// waitingText says why a table with bets cannot deal yet, in the words the
// lobby uses for what it needs (needs.*, tableNeeds): AR-03 as seated
// players betting until the shoe starts, then as bets made; with what it
// has now. VE-20 and any other reason by its own words.
export function waitingText(w, bets = []) {
  const p = w?.params || {};
  if (w?.reason === 'table_minimum_bets' || w?.reason === 'table_minimum_players') {
    const players = new Set(bets.map(b => b.player)).size;
    const n = p.bets ?? p.n ?? bets.length;
    const need = tr(p.shoe ? 'needs.bets' : 'needs.players', { need: p.need, rule: p.rule || 'AR-03' });
    return `${need} ${tr('needs.have', { n, players })}`;
  }
  return refusal(w);
}

// TableState is a table: the snapshot's fields, the round, whose turn it is.
export class TableState {
  constructor(id, me = '') {
    this.id = id;
    this.me = me;
    this.epoch = '';
    this.seq = 0;
    this.table = null;
    this.round = null;
    this.turn = null;
    this.lastRound = false; // EG-04: the cut card came out
    this.bettingDeadline = 0;
    this.version = 0; // counts changes, for redrawing
  }

  snapshot(epoch, seq, tv) {
    this.epoch = epoch || this.epoch;
    if (seq !== undefined) this.seq = seq;
    const { round, turn, ...table } = tv;
    this.table = { ...table, seats: [...(table.seats || [])], bets: [...(table.bets || [])], ready: [...(table.ready || [])] };
    this.round = round ? Round.fromView(tv.id, round) : null;
    if (this.round) this.round.dealer.staysOne = this.staysOne();
    this.turn = turn || null;
    this.bettingDeadline = tv.betting_deadline || 0;
    this.waiting = tv.waiting || null;
    this.version++;
  }

  // setValues takes the table's option values (the rules panel's): the
  // dealer's total follows dealer_ace (AR-13).
  setValues(values) {
    this.values = values;
    if (this.round) this.round.dealer.staysOne = this.staysOne();
    this.version++;
  }

  staysOne() {
    return this.values?.dealer_ace === 'stays-one';
  }

  holder(box) {
    return this.table?.seats.find(s => s.box === box)?.player || '';
  }

  seatedBoxes(player = this.me) {
    return (this.table?.seats || []).filter(s => s.player === player).map(s => s.box);
  }

  // inPlay says whether a round is being played: no bet now.
  inPlay() {
    return !!this.round && !this.round.settled;
  }

  label(box, hand) {
    const n = this.round?.boxes.get(box)?.length || 0;
    return n > 1 ? tr('box.hand', { box, hand }) : tr('box', { box });
  }

  // apply applies one event and returns what the dealer says of it:
  // [{text, speech, kind}] (kind: dealer, info, me, alert).
  apply(e) {
    this.version++;
    const out = [];
    const say = (text, kind = 'dealer', speech = text) => out.push({ text, speech, kind });
    const r = this.round;
    const t = this.table;
    switch (e.kind) {
      case 'sit':
        t.seats = t.seats.filter(s => s.box !== e.box).concat({ box: e.box, player: e.player }).sort((a, b) => a.box - b.box);
        say(tr('call.sit', { player: e.player, box: e.box }), 'info');
        break;
      case 'leave':
        t.seats = t.seats.filter(s => s.player !== e.player);
        t.bets = t.bets.filter(b => b.player !== e.player);
        say(e.text ? tr('call.playerText', { player: e.player, text: refusal(e) }) : tr(e.amount ? 'call.leaveReturned' : 'call.leave', { player: e.player, amount: money(e.amount) }), 'info');
        break;
      case 'release':
        // AR-21: one box given up, and its holder's bet on it returned.
        t.seats = t.seats.filter(s => !(s.box === e.box && s.player === e.player));
        t.bets = t.bets.filter(b => !(b.box === e.box && b.player === e.player));
        say(tr('call.playerText', { player: e.player, text: refusal(e) }), 'info');
        break;
      case 'closed':
        // 003 §11: the pit closed the table between rounds; its players
        // are invited to another (e.table), their bets returned (the
        // leave events before this one).
        t.closed = e.text || 'closed';
        t.pit_closed = true;
        t.invited_to = e.table || 0;
        say(e.table ? tr('call.closedTo', { table: e.table, by: e.by }) : tr('call.closed', { by: e.by }), 'alert');
        break;
      case 'reopened':
        t.closed = '';
        t.pit_closed = false;
        t.invited_to = 0;
        say(tr('call.reopened', { by: e.by }), 'info');
        break;
      case 'configure':
        // A fresh snapshot with the new rules follows.
        say(tr('call.configure', { text: sentence('event.', e.words, e.text) }), 'info');
        break;
      case 'bet': {
        const b = t.bets.find(b => b.player === e.player && b.box === e.box);
        if (b) b.stake = e.amount;
        else t.bets.push({ player: e.player, box: e.box, stake: e.amount });
        say(tr('call.bet', { player: e.player, amount: money(e.amount), box: e.box }), 'info');
        break;
      }
      case 'withdraw':
        t.bets = t.bets.filter(b => !(b.player === e.player && b.box === e.box));
        // A bet the player took back, or one the bank cannot cover (FAM-01).
        say(e.text ? tr('call.betReturned', { player: e.player, box: e.box, text: refusal(e).replace(/\.$/, '') }) : tr('call.withdraw', { player: e.player, box: e.box }), 'info');
        break;
      case 'ready':
        // A seated player has placed his bets: the window ends when every
        // seated player has said so.
        if (!t.ready.includes(e.player)) t.ready = [...t.ready, e.player];
        say(tr('call.ready', { player: e.player }), 'info');
        break;
      case 'betting':
        this.bettingDeadline = e.deadline;
        this.waiting = null;
        say(tr('call.placeBets'));
        break;
      case 'waiting':
        this.bettingDeadline = 0;
        this.waiting = { reason: e.reason, params: e.params, text: e.text };
        say(waitingText(e, t.bets), 'alert');
        break;
      case 'shoe':
        t.shoe = { ...t.shoe, id: e.shoe, commitment: e.commitment };
        this.lastRound = false;
        say(e.commitment ? tr('call.shoe', { shoe: e.shoe, commitment: String(e.commitment).slice(0, 12) }) : tr('call.shoePhysical', { shoe: e.shoe }), 'info');
        break;
      case 'shoe-reveal':
        say(tr('call.shoeReveal', { shoe: e.shoe }), 'info');
        break;
      case 'deal': {
        // AR-21: a seated player who placed no bet gives up the seat.
        const betting = new Set(t.bets.map(b => b.player));
        t.seats = t.seats.filter(s => betting.has(s.player));
        t.bets = [];
        t.ready = [];
        this.bettingDeadline = 0;
        this.waiting = null;
        this.round = new Round(e.round, `${this.id}-${e.round}`, e.test);
        this.round.dealer.staysOne = this.staysOne();
        this.turn = null;
        if (t.shoe && e.shoe && t.shoe.id !== e.shoe) t.shoe = { ...t.shoe, id: e.shoe };
        say(tr(e.test ? 'call.dealTest' : 'call.deal', { round: e.round }));
        break;
      }
      case 'stake': {
        if (!r) break;
        r.bets.push({ player: e.player, box: e.box, hand: e.hand || 1, kind: e.bet, stake: e.amount, result: '', net: 0 });
        if (e.bet === 'main' && !r.holders.has(e.box)) {
          r.holders.set(e.box, e.player);
          r.hand(e.box, 1);
        }
        if (e.bet === 'insurance') say(tr('call.insure', { player: e.player, box: e.box, amount: money(e.amount) }));
        if (e.bet === 'challenge') say(tr('call.challenge', { player: e.player, box: e.box, amount: money(e.amount) }));
        break;
      }
      case 'card': {
        if (!r) break;
        if (t.shoe && t.shoe.remaining > 0 && !r.test) t.shoe.remaining--;
        if (!e.box) {
          r.dealer.add(e.card, e.face_down);
          const total = r.dealer.dealerTotal();
          if (e.face_down) say(tr('call.dealerHole'));
          else if (r.dealer.cards.length === 1) say(tr('call.dealerShows', { card: cardShort(e.card) }), 'dealer', tr('speech.dealerShows', { card: cardName(e.card) }));
          else say(tr('call.dealerDraws', { card: cardShort(e.card), total }), 'dealer', tr('speech.dealerDraws', { card: cardName(e.card), total }));
        } else {
          const h = r.hand(e.box, e.hand || 1);
          h.add(e.card, e.face_down);
          const who = this.label(e.box, e.hand || 1);
          const total = h.playerTotal();
          if (e.face_down) say(tr('call.faceDown', { who }));
          else if (h.cards.length < 2) say(tr('call.card', { who, card: cardShort(e.card) }), 'dealer', tr('speech.card', { who, card: cardName(e.card) }));
          else say(tr('call.cardTotal', { who, card: cardShort(e.card), total }), 'dealer', tr('speech.cardTotal', { who, card: cardName(e.card), total }));
        }
        break;
      }
      case 'reveal': {
        if (!r) break;
        if (!e.box) {
          r.dealer.reveal(e.card);
          const total = r.dealer.dealerTotal();
          say(tr('call.dealerTurns', { card: cardShort(e.card), total }), 'dealer', tr('speech.dealerTurns', { card: cardName(e.card), total }));
        } else {
          const h = r.hand(e.box, e.hand || 1);
          h.reveal(e.card);
          const who = this.label(e.box, e.hand || 1);
          const total = h.playerTotal();
          say(tr('call.doubleCard', { who, card: cardShort(e.card), total }), 'dealer', tr('speech.doubleCard', { who, card: cardName(e.card), total }));
        }
        break;
      }
      case 'burn':
        say(tr('call.burn', { card: cardShort(e.card) }), 'info', tr('speech.burn', { card: cardName(e.card) }));
        break;
      case 'undo': {
        // A physical shoe: the dealer took back the last card read.
        if (!r) break;
        const h = e.box ? r.hand(e.box, e.hand || 1) : r.dealer;
        if (h.cards.length) h.takeBack();
        say(e.card ? tr('call.undo', { card: cardShort(e.card) }) : tr('call.undoDown'), 'info');
        break;
      }
      case 'window':
        if (!r) break;
        r.phase = e.phase;
        if (e.phase === 'follow') {
          const b = this.turnBox();
          const what = tr('follow.' + (r.followKind || 'decision'));
          say(tr(b ? 'call.followBox' : 'call.follow', { what, box: b, rule: followRule(this.table?.profile) }));
        } else if (e.phase === 'insurance' && tenUp(r)) say(tr('window.evenMoney')); // VE-16: even money alone under a ten
        else if (WINDOW_CALLS.has(e.phase)) say(tr('window.' + e.phase));
        break;
      case 'turn':
        this.turn = e.turn;
        if (r && e.turn) r.phase = e.turn.phase;
        if (e.turn && e.turn.players.includes(this.me)) {
          const mine = e.turn.legal.filter(l => l.player === this.me);
          const box = e.turn.box || mine[0]?.box;
          say(e.turn.phase === 'playing' ? tr('call.yourTurn', { who: this.label(box, e.turn.hand || 1) }) : tr('call.yourAnswer', { phase: tr(e.turn.phase === 'insurance' && tenUp(r) ? 'phase.evenMoney' : 'phase.' + e.turn.phase) }), 'me');
        }
        break;
      case 'action': {
        if (!r || !e.action) break;
        const a = e.action;
        const holder = r.holders.get(a.box);
        const byHolder = a.player && a.player === holder;
        const prefix = e.by === 'timeout' ? tr('call.timeUp') : '';
        this.turn = null;
        switch (a.action) {
          case 'split':
            if (byHolder && r.phase !== 'follow') {
              r.split(a.box, a.hand || 1);
              r.followKind = 'split';
              say(prefix + tr('call.split', { who: tr('box', { box: a.box }) }));
            } else say(prefix + tr('call.followSplit', { player: a.player, box: a.box }));
            break;
          case 'double': {
            // VE-19: a double may name its own stake.
            const amount = a.stake ? money(a.stake) : '';
            if (byHolder && r.phase !== 'follow') {
              r.hand(a.box, a.hand || 1).doubled = true;
              r.followKind = 'double';
              say(prefix + tr(amount ? 'call.doubleFor' : 'call.double', { who: this.label(a.box, a.hand || 1), amount }));
            } else say(prefix + tr(amount ? 'call.followDoubleFor' : 'call.followDouble', { player: a.player, box: a.box, amount }));
            break;
          }
          case 'declare':
            r.hand(a.box, a.hand || 1).declare(a.value);
            say(prefix + tr('call.declare', { who: this.label(a.box, a.hand || 1), value: a.value, total: r.hand(a.box, a.hand || 1).playerTotal() }));
            break;
          case 'even-money':
            say(prefix + tr('call.evenMoney', { player: a.player, box: a.box }));
            break;
          case 'insure':
          case 'challenge':
            break; // said with the stake
          case 'close':
            if (e.by === 'timeout') say(tr('call.windowCloses'));
            break;
          default:
            if (ACTION_CALLS.has(a.action)) {
              const h = r.hand(a.box, a.hand || 1);
              say(prefix + tr('call.' + a.action, { who: this.label(a.box, a.hand || 1), total: h.playerTotal() }));
            }
        }
        break;
      }
      case 'decline':
        if (this.turn) {
          this.turn = { ...this.turn, legal: this.turn.legal.filter(l => !(l.player === e.player && l.box === e.box)) };
          this.turn.players = [...new Set(this.turn.legal.map(l => l.player))];
        }
        if (e.player === this.me) say(tr('call.pass', { box: e.box }), 'info');
        break;
      case 'cut-card':
        this.lastRound = true;
        if (r) r.cutCard = true;
        say(tr('call.cutCard'), 'alert');
        break;
      case 'result': {
        if (!r) break;
        let b = r.bets.find(x => x.player === e.player && x.box === e.box && x.hand === (e.hand || 1) && x.kind === e.bet);
        if (!b) {
          b = { player: e.player, box: e.box, hand: e.hand || 1, kind: e.bet, stake: 0 };
          r.bets.push(b);
        }
        b.result = e.result;
        b.net = e.amount || 0;
        if (e.player === r.holders.get(e.box) && (e.bet === 'main' || e.bet === 'split')) r.hand(e.box, e.hand || 1).result = e.result;
        break;
      }
      case 'void':
        if (r) r.void = refusal(e) || 'void';
        say(tr('call.void', { text: refusal(e) }), 'alert');
        break;
      case 'done':
        if (!r) break;
        r.phase = 'done';
        this.turn = null;
        if (r.dealer.cards.length && !r.void) {
          const d = r.dealer;
          if (d.shown.bust()) say(tr('call.dealerBusts', { n: d.total() }));
          else if (d.blackjack()) say(tr('call.dealerBlackjack'));
          else if (d.shown.n > 1) say(tr('call.dealerHas', { n: d.total() }));
        }
        break;
      case 'settle': {
        if (!r) break;
        r.phase = 'done';
        r.settled = true;
        r.net = e.net || {};
        this.turn = null;
        if (e.new_bank) t.bank = e.new_bank;
        if (this.me && this.me in r.net) {
          const n = r.net[this.me];
          if (e.void) say(tr('call.stakesReturned'), 'me');
          else if (n > 0) say(tr('call.youWin', { amount: money(n) }), 'me');
          else if (n < 0) say(tr('call.youLose', { amount: money(-n) }), 'me');
          else say(evenCall(r.bets.filter(b => b.player === this.me)), 'me');
        } else say(tr('call.roundOver', { round: e.round }), 'info');
        if (e.new_bank) say(tr('call.newBank', { player: e.new_bank }), 'info');
        break;
      }
    }
    return out;
  }

  turnBox() {
    return this.turn?.box || 0;
  }

  // boxTurn is the turn if it is one box's (insurance and the challenge are
  // open to every box at once): that box is marked, with its timer.
  boxTurn() {
    const tn = this.turn;
    return tn && tn.phase !== 'insurance' && tn.phase !== 'challenge' ? tn : null;
  }

  // myLegal is what this player may decide now, by box.
  myLegal() {
    if (!this.turn || !this.me) return [];
    return this.turn.legal.filter(l => l.player === this.me);
  }
}

