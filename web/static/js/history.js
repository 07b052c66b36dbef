// The table's history and the session's result: the player's
// last rounds at this table, read from the server (GET
// /api/tables/{id}/history: the dealer's total, each of his bets' result,
// his net), and what he has won or lost since he sat at this table in this
// tab, with the rounds played. The sums are pure functions; History draws
// them.

import { h, replace, money, signed, netClass, cardShort } from './dom.js';
import { t } from './i18n.js';

// HISTORY_LIMIT is how many rounds the panel shows.
export const HISTORY_LIMIT = 10;

// addRound adds a settled round to a session's result ({net, rounds, ids}):
// a round counted once, however often its settlement is seen (a snapshot
// after a reconnection shows it again). ids keeps the last few.
export function addRound(sess, id, net) {
  if (sess.ids.includes(id)) return sess;
  return { net: sess.net + net, rounds: sess.rounds + 1, ids: [...sess.ids, id].slice(-20) };
}

export function newSession() {
  return { net: 0, rounds: 0, ids: [] };
}

// betLine says one bet of a round in the page's language: "Box 3: win
// with 20 +10.00" ("double" and the like named). A box split in the round
// (bets: the round's) names each hand, the first too.
export function betLine(b, bets = []) {
  const kind = b.kind && b.kind !== 'main' ? ` (${t('betKind.' + b.kind)})` : '';
  const total = b.total && b.kind !== 'insurance' ? t('history.with', { total: b.total }) : '';
  const split = b.hand > 1 || bets.some(x => x.box === b.box && x.hand > 1);
  const hand = split && b.kind !== 'insurance' ? t('history.hand', { hand: b.hand || 1 }) : '';
  const result = b.result ? t('outcome.' + b.result) : t('history.returned');
  return `${t('history.box', { box: b.box })}${hand}${kind}: ${result}${total} ${signed(b.net)}`;
}

const KEY = 'sabot.tablesession.';

export class History {
  // onLast is told the last round's main stakes ({box, stake}) when they
  // are read (for re-bet after a reload).
  constructor(state, id, api, onLast) {
    this.state = state;
    this.id = id;
    this.api = api;
    this.onLast = onLast;
    this.rounds = [];
    this.key = `${KEY}${state.me}.${id}`;
    this.sess = this.read();
    this.loading = null;
    this.sig = '';
    this.el = h('section', { class: 'table-history', 'aria-labelledby': 'history-h' });
  }

  read() {
    try { return JSON.parse(sessionStorage.getItem(this.key)) || newSession(); } catch { return newSession(); }
  }

  save() {
    try { sessionStorage.setItem(this.key, JSON.stringify(this.sess)); } catch { /* full: the page keeps it */ }
  }

  // load reads the last rounds again.
  async load() {
    if (!this.state.me) return;
    try {
      this.rounds = await this.api(`/api/tables/${this.id}/history?limit=${HISTORY_LIMIT}`);
      const last = this.rounds[0];
      if (last && this.onLast) {
        this.onLast(last.bets.filter(b => b.kind === 'main').reduce((out, b) => out.some(o => o.box === b.box) ? out : [...out, { box: b.box, stake: b.stake }], []));
      }
    } catch { /* the panel keeps what it had */ }
    this.draw();
  }

  // settled counts a round this player bet in; again for a round already
  // counted changes nothing.
  settled(round) {
    const me = this.state.me;
    if (!me || !round || !round.settled || !round.net || !(me in round.net)) return;
    const id = round.id;
    const next = addRound(this.sess, id, round.net[me]);
    if (next !== this.sess) {
      this.sess = next;
      this.save();
      this.load();
    }
  }

  // seen follows the table's events: a session starts when the player
  // takes his first box; a round he bet in counts when it is settled.
  seen(e) {
    const me = this.state.me;
    if (e.kind === 'sit' && e.player === me && this.state.seatedBoxes(me).length === 1 && !this.state.table.bets.some(b => b.player === me)) {
      this.sess = newSession();
      this.save();
      this.draw();
    }
    if (e.kind === 'settle') this.settled(this.state.round);
  }

  draw() {
    if (!this.state.me) {
      this.el.hidden = true;
      return;
    }
    const sig = JSON.stringify([this.rounds, this.sess]);
    if (sig === this.sig) return;
    this.sig = sig;
    const s = this.sess;
    replace(this.el,
      h('h2', { id: 'history-h' }, t('history.heading')),
      h('p', { class: 'session-result' }, t('history.session'),
        h('strong', { class: `session-net ${netClass(s.net)}` }, signed(s.net)),
        t('history.over', { n: s.rounds })),
      this.rounds.length
        ? h('ol', { class: 'history-list' }, this.rounds.map(r => h('li', { 'data-round': r.id },
          h('span', { class: 'history-round' }, t('history.round', { no: r.no })),
          h('span', { class: 'history-dealer' }, r.void ? t('history.void') : t('history.dealer', { total: r.dealer.total }),
            r.dealer.cards.length ? h('span', { class: 'history-cards', 'aria-hidden': 'true' }, ' ' + r.dealer.cards.map(cardShort).join(' ')) : null),
          h('ul', { class: 'history-bets' }, r.bets.map(b => h('li', { class: netClass(b.net) }, betLine(b, r.bets)))),
          h('strong', { class: `history-net ${netClass(r.net)}` }, signed(r.net)))))
        : h('p', { class: 'hint' }, t('history.none')));
  }
}
