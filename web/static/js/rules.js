// The rules of a table in plain words, each with its rule IDs' texts; the
// return to player; the basic strategy card; the timers and their defaults.

import { api } from './api.js';
import { h, replace, pct, money } from './dom.js';

// rulesPanel fills el with the table's rules and resolves with every
// option's value (for the felt's print), or null.
export async function rulesPanel(el, id, { open = false } = {}) {
  const body = h('div', { class: 'rules-body' }, h('p', {}, 'Loading the rules…'));
  const rtp = h('p', { class: 'rtp' }, 'Return to player: computing…');
  const card = h('details', { class: 'strategy' },
    h('summary', {}, 'Basic strategy card'),
    h('p', { class: 'hint' }, 'The best play for each hand against each dealer card, by exact analysis of these rules: H hit, S stand, D double, P split.'));
  card.addEventListener('toggle', () => {
    if (card.open && !card.querySelector('img')) {
      card.append(h('img', {
        src: `/api/tables/${id}/strategy.svg`, class: 'strategy-img', loading: 'lazy',
        alt: 'Basic strategy card of this table: hard totals, soft totals and pairs down the side, the dealer\'s up card across the top; each cell says hit, stand, double or split.',
      }));
    }
  });
  const timers = h('div', { class: 'timers' });
  replace(el, h('section', { class: 'rules-panel', id: 'rules', 'aria-labelledby': 'rules-h' },
    h('h2', { id: 'rules-h' }, 'Rules of the table'), rtp, body, timers, card));

  // The edge takes a second the first time its rules are analysed: the
  // rules, and the option values the table needs (VE-19), do not wait.
  api(`/api/tables/${id}/edge`).then(e => {
    replace(rtp,
      h('strong', {}, `Return to player ${pct(e.basic.rtp)}`), ` (house edge ${pct(e.basic.house_edge)}) with basic strategy; `,
      `${pct(e.best.rtp)} with composition-dependent play. `,
      h('span', { class: 'hint' }, `Exact: ${e.method}.`),
      e.insurance_ev !== undefined ? h('span', { class: 'hint' }, ` Insurance returns ${pct(e.insurance_ev)} of its stake: ${e.insurance_ev > 0 ? 'worth taking' : 'never worth taking'} off the top.`) : null);
  }, err => {
    rtp.textContent = 'The return to player is not available: ' + err.message;
  });
  const [rules, table] = await Promise.allSettled([api(`/api/tables/${id}/rules`), api(`/api/tables/${id}`)]);
  if (rules.status !== 'fulfilled') {
    replace(body, h('p', {}, 'The rules are not available: ' + rules.reason.message));
    return null;
  }
  const r = rules.value;
  replace(body,
    h('p', { class: 'desc' }, r.description),
    h('dl', { class: 'rule-lines' }, r.lines.map(line => [
      h('dt', {}, line.topic),
      h('dd', {}, line.text, ruleRefs(line.rules)),
    ])),
    r.readings.length ? h('details', { class: 'readings', open: open || null },
      h('summary', {}, 'Where the regulation is silent: the readings this table takes'),
      h('ul', {}, r.readings.map(x => h('li', {}, h('strong', {}, x.topic + ': '), x.text, x.options?.length ? h('span', { class: 'hint' }, ` (option ${x.options.join(', ')})`) : null)))) : null);
  if (table.status === 'fulfilled') {
    const t = table.value.rules;
    replace(timers,
      h('h3', {}, 'Timers'),
      h('p', {}, `Bets close ${t.bet_window_ms / 1000} s after the first bet; each decision has ${t.decision_ms / 1000} s, an optional window (insurance, challenge, following the box holder) ${t.window_ms / 1000} s. Limits: ${money(t.min_bet)} to ${money(t.max_bet)}.`),
      h('p', { class: 'hint' }, `When time runs out — ${t.on_timeout}.`));
  }
  return r.values;
}

function ruleRefs(refs) {
  if (!refs || !refs.length) return null;
  return h('details', { class: 'refs' },
    h('summary', {}, refs.map(x => x.id).join(', ')),
    h('ul', {}, refs.map(x => h('li', {}, h('strong', {}, x.id + ' '), x.text))));
}
