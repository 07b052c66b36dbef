// The rules of a table in plain words, each with its rule IDs' texts; the
// return to player; the basic strategy card, each cell with its hand's values;
// the hand calculator; the timers and their defaults.
// Each rule ID shows the regulation's own words (Spanish or Italian, quoted
// from its seed) beside the English wording.

import { api } from './api.js';
import { h, replace, pct, money } from './dom.js';
import { t, phrase, sentence as words } from './i18n.js';
import { calculator, strategyGrid } from './calc.js';

// A reading of another regulation's rule is shown under this table's rules
// with the option and its value (the server's topic "this table's rules: OPTION=VALUE").
const TABLE_RULES = "this table's rules: ";
const readingTopic = topic => topic.startsWith(TABLE_RULES) ? t('rules.tableRules', { option: topic.slice(TABLE_RULES.length) }) : topic;

// rulesPanel fills el with the table's rules and resolves with every
// option's value (for the felt's print), or null.
export async function rulesPanel(el, id, { open = false } = {}) {
  const body = h('div', { class: 'rules-body' }, h('p', {}, t('rules.loading')));
  const rtp = h('p', { class: 'rtp' }, t('rules.rtpComputing'));
  const card = h('details', { class: 'strategy' },
    h('summary', {}, t('rules.card')),
    h('p', { class: 'hint' }, t('rules.cardHint')));
  // The card as a table whose cells show their hand's values on hover or
  // tap (calc.js); the drawn card (strategy.svg) a link away.
  card.addEventListener('toggle', () => {
    if (card.open && !card.querySelector('.strategy-grids, .calc-error')) {
      const box = h('div', { class: 'strategy-box' }, h('p', { class: 'hint' }, t('calc.computing')));
      card.append(box, h('p', {}, h('a', { href: `/api/tables/${id}/strategy.svg`, target: '_blank', rel: 'noopener' }, t('rules.cardImage'))));
      api(`/api/tables/${id}/strategy`).then(c => replace(box, strategyGrid(id, c)),
        err => replace(box, h('p', { class: 'calc-error' }, err.message)));
    }
  });
  const timers = h('div', { class: 'timers' });
  replace(el, h('section', { class: 'rules-panel', id: 'rules', 'aria-labelledby': 'rules-h' },
    h('h2', { id: 'rules-h' }, t('rules.heading')), rtp, body, timers, card, calculator(id)));

  // The edge takes a second the first time its rules are analysed: the
  // rules, and the option values the table needs (VE-19), do not wait.
  api(`/api/tables/${id}/edge`).then(e => {
    replace(rtp,
      h('strong', {}, t('rules.rtp', { rtp: pct(e.basic.rtp) })), t('rules.edge', { edge: pct(e.basic.house_edge) }),
      t('rules.best', { rtp: pct(e.best.rtp) }),
      h('span', { class: 'hint' }, t('rules.exact')),
      e.insurance_ev !== undefined ? h('span', { class: 'hint' }, t(e.insurance_ev > 0 ? 'rules.insurance' : 'rules.insuranceNot', { ev: pct(e.insurance_ev) })) : null);
  }, err => {
    rtp.textContent = t('rules.rtpUnavailable', { message: err.message });
  });
  const [rules, table] = await Promise.allSettled([api(`/api/tables/${id}/rules`), api(`/api/tables/${id}`)]);
  if (rules.status !== 'fulfilled') {
    replace(body, h('p', {}, t('rules.unavailable', { message: rules.reason.message })));
    return null;
  }
  const r = rules.value;
  replace(body,
    h('p', { class: 'desc' }, phrase('profile.', { key: r.profile, text: r.description })),
    // The option values that break a rule of the table's own regulation.
    r.departures?.length ? h('div', { class: 'departures', role: 'note' },
      h('strong', {}, t('rules.departs')),
      h('ul', {}, r.departures.map(d => h('li', {}, d.text)))) : null,
    h('dl', { class: 'rule-lines' }, r.lines.map(line => [
      h('dt', {}, phrase('topic.', { key: line.key, text: line.topic })),
      h('dd', {}, sentence(line), ruleRefs(line.rules)),
    ])),
    r.readings.length ? h('details', { class: 'readings', open: open || null },
      h('summary', {}, t('rules.readings')),
      h('ul', {}, r.readings.map(x => h('li', {}, h('strong', {}, readingTopic(x.topic) + ': '), sentence(x), x.options?.length ? h('span', { class: 'hint' }, t('rules.option', { options: x.options.join(', ') })) : null)))) : null);
  if (table.status === 'fulfilled') {
    const tr = table.value.rules;
    replace(timers,
      h('h3', {}, t('rules.timers')),
      h('p', {}, t('rules.timersText', { bet: tr.bet_window_ms / 1000, decision: tr.decision_ms / 1000, window: tr.window_ms / 1000, min: money(tr.min_bet), max: money(tr.max_bet) })),
      h('p', { class: 'hint' }, t('rules.onTimeout')));
  }
  return r.values;
}

// sentence words a rule line in the page's language, phrase by phrase
// (rule.KEY of the catalogue), or says its English text.
export function sentence(line) {
  return words('rule.', line.phrases, line.text);
}

function ruleRefs(refs) {
  if (!refs || !refs.length) return null;
  return h('details', { class: 'refs' },
    h('summary', {}, refs.map(x => x.id).join(', ')),
    h('ul', {}, refs.map(x => h('li', {}, h('strong', {}, x.id + ' '),
      // The regulation's own words, in its language, then the English.
      x.seed ? h('blockquote', { class: 'seed-text', lang: x.seed.lang, title: t('rules.seedText') }, x.seed.text) : null,
      x.seed ? h('span', { class: 'translation', lang: 'en' }, x.text) : x.text,
      x.departs?.length ? h('span', { class: 'departs' }, t('rules.departsHere', { how: x.departs.join('; ') })) : null))));
}
