// The table's history beside the felt: this player's last rounds at this
// table (the dealer's total, the result, a link to the recall) and the
// session's result so far — the rounds settled since this page opened and
// their net. The rounds are the ones this browser noted as they settled
// (api.js noteRound); what is shown is worked out by pure functions.

import { history } from './api.js';
import { h, replace, signed, netClass } from './dom.js';

// tableRounds is the last n rounds of a table in a player's list, newest
// first.
export function tableRounds(list, table, n = 10) {
  return list.filter(r => r.table === table).slice(0, n);
}

// sessionResult is what the rounds of a table settled since a time (ms)
// came to: how many, and their net.
export function sessionResult(list, table, since) {
  const rs = list.filter(r => r.table === table && r.at >= since);
  return { rounds: rs.length, net: rs.reduce((n, r) => n + (r.net || 0), 0) };
}

// History draws them; draw again after a round settles.
export class History {
  constructor(table) {
    this.table = table;
    this.since = Date.now();
    this.sig = '';
    this.session = h('p', { class: 'session-result', 'aria-live': 'polite' });
    this.list = h('ol', { class: 'round-history' });
    this.el = h('section', { class: 'history', 'aria-labelledby': 'history-h' },
      h('h2', { id: 'history-h' }, 'Your last rounds here'), this.session, this.list);
  }

  draw() {
    const all = history();
    const rounds = tableRounds(all, this.table);
    const s = sessionResult(all, this.table, this.since);
    const sig = JSON.stringify([rounds, s]);
    if (sig === this.sig) return;
    this.sig = sig;
    replace(this.session, s.rounds
      ? ['This session: ', `${s.rounds} ${s.rounds === 1 ? 'round' : 'rounds'}, `, h('strong', { class: 'net ' + netClass(s.net) }, signed(s.net))]
      : 'This session: no round yet.');
    replace(this.list, rounds.length
      ? rounds.map(r => h('li', {},
        h('a', { href: `/rounds/${r.id}` }, `Round ${r.no || r.id.split('-').pop()}`),
        r.dealer ? ` · dealer ${r.dealer}` : '',
        r.void ? ' · void' : '',
        ' · ', h('span', { class: 'net ' + netClass(r.net) }, signed(r.net))))
      : [h('li', { class: 'hint' }, 'None yet.')]);
  }
}
