// The pit's players: found by the start of their name,
// each with his wallet, where he sits, his limits, his exclusion or the
// pit's block and his last rounds; blocked and unblocked from here, with a
// reason (GET /api/admin/players, POST /api/admin/players/{name}/block).

import { api } from './api.js';
import { h, replace, money } from './dom.js';
import { announce, toast } from './ui.js';
import { t, formatDate, refusal } from './i18n.js';

// playersPanel is the pit's players section; done reports an action that
// went through (the pit page reloads its events).
export function playersPanel(done) {
  const q = h('input', { id: 'players-q', name: 'q', type: 'search', autocomplete: 'off', maxlength: 64, placeholder: t('pit.playersHint') });
  const rows = h('tbody', {});
  const form = h('form', { class: 'pit-form pit-players-find', id: 'players', role: 'search', 'aria-labelledby': 'players-h' },
    h('h2', { id: 'players-h' }, t('pit.players')),
    h('div', { class: 'field' }, h('label', { for: 'players-q' }, t('pit.playersFind')), q),
    h('button', { type: 'submit', class: 'button' }, t('pit.playersButton')));

  function row(p) {
    const state = p.blocked
      ? t('pit.playerBlocked', { reason: p.blocked.reason, at: formatDate(p.blocked.at) })
      : p.exclusion ? t('pit.playerExcluded', { kind: t('kind.' + p.exclusion), until: formatDate(p.until) }) : '—';
    const block = h('button', { type: 'button', class: 'button small secondary', dataset: { op: p.blocked ? 'unblock' : 'block', player: p.name } },
      p.blocked ? t('pit.unblock') : t('pit.block'));
    block.addEventListener('click', async () => {
      const reason = prompt(t(p.blocked ? 'pit.unblockReason' : 'pit.blockReason', { name: p.name }));
      if (!reason || !reason.trim()) return;
      try {
        await api(`/api/admin/players/${encodeURIComponent(p.name)}/${p.blocked ? 'unblock' : 'block'}`, { method: 'POST', body: { reason: reason.trim() } });
        done(t(p.blocked ? 'pit.unblocked' : 'pit.blocked', { name: p.name }));
        find();
      } catch (e) {
        toast(refusal(e));
      }
    });
    const net = r => (r.net > 0 ? '+' : '') + money(r.net);
    return h('tr', { dataset: { player: p.name } },
      h('td', {}, p.name, p.operator ? [h('br'), h('small', {}, t('pit.playerOperator'))] : null),
      h('td', { class: 'num' }, p.wallet != null ? money(p.wallet) : '—'),
      h('td', {}, p.seats.length ? p.seats.map((s, i) => [i ? h('br') : null, h('a', { href: `/tables/${s.table}` }, t('pit.playerSeat', { name: s.name, box: s.box }))]) : '—'),
      h('td', {}, p.limits.length ? p.limits.map((l, i) => [i ? h('br') : null, t('pit.playerLimit', { kind: t('pit.limitKind.' + l.kind), period: t('pit.limitPeriod.' + l.period), amount: money(l.amount) })]) : '—'),
      h('td', { class: 'pit-player-state' }, state),
      h('td', {}, p.rounds.length ? p.rounds.map((r, i) => [i ? h('br') : null, h('a', { href: `/rounds/${r.id}` }, `${formatDate(r.at)} ${r.name}`), ' ', net(r)]) : '—'),
      h('td', {}, block));
  }

  async function find() {
    let list;
    try {
      list = await api(`/api/admin/players?q=${encodeURIComponent(q.value.trim())}`);
    } catch (e) {
      toast(refusal(e));
      return;
    }
    replace(rows, list.length ? list.map(row) : h('tr', {}, h('td', { colspan: 7, class: 'empty' }, t('pit.noPlayers'))));
    announce(t('pit.playersFound', { n: list.length }));
  }
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    find();
  });

  const table = h('table', { class: 'rounds pit-players' },
    h('caption', {}, t('pit.players')),
    h('thead', {}, h('tr', {}, h('th', {}, t('pit.player')), h('th', {}, t('pit.colWallet')), h('th', {}, t('pit.colSeated')),
      h('th', {}, t('pit.colLimits')), h('th', {}, t('pit.colCare')), h('th', {}, t('pit.colRounds')), h('th', {}, t('pit.colPit')))),
    rows);
  return { form, table, find };
}
