// The lobby: every table with its rules, limits, free boxes and house edge.

import { api, loggedIn, session } from './api.js';
import { h, svgEl, replace, money, pct } from './dom.js';
import { boxAngle } from './felt.js';
import { toast } from './ui.js';
import { tableNeeds, waitingText, waitRule } from './state.js';
import { duration } from './status.js';
import { t as tr, refusal } from './i18n.js';

export function lobbyPage(main) {
  const list = h('ul', { class: 'lobby', 'aria-label': tr('lobby.tables') });
  const edges = new Map(); // "profile options" → promise of the edge
  replace(main,
    h('div', { class: 'lobby-head' },
      h('h1', {}, tr('lobby.tables')),
      loggedIn()
        ? h('p', {}, tr('lobby.welcome', { name: session.user?.name }))
        : h('p', {}, h('a', { href: '/login' }, tr('lobby.loginLink')), tr('lobby.loginRest'))),
    list);

  async function load() {
    let tables;
    try {
      tables = await api('/api/tables');
    } catch (e) {
      toast(refusal(e));
      return;
    }
    if (!tables.length) {
      replace(list, h('li', { class: 'empty' }, tr('lobby.empty')));
      return;
    }
    // Redraw only what changed, so that a reader's place in the list stays.
    const sig = JSON.stringify(tables.map(t => [t.id, t.name, t.seats, t.closed, t.round?.no, t.round?.phase, t.rules?.min_bet, t.rules?.max_bet, t.waiting]));
    if (sig === shown) return;
    shown = sig;
    replace(list, tables.map(t => tableCard(t)));
  }
  let shown = '';

  function tableCard(t) {
    const r = t.rules || {};
    const free = (r.boxes || 0) - (t.seats || []).length;
    const edge = h('span', { class: 'edge' }, '…');
    const key = t.profile + JSON.stringify(t.options || {});
    if (!edges.has(key)) edges.set(key, api(`/api/tables/${t.id}/edge`));
    edges.get(key).then(e => {
      replace(edge, h('strong', {}, pct(e.basic.house_edge)), h('span', { class: 'nowrap' }, ` · RTP ${pct(e.basic.rtp)}`));
    }, () => { edge.textContent = tr('lobby.notAvailable'); });
    const inPlay = t.round && t.round.phase !== 'done';
    const needs = tableNeeds(r);
    return h('li', { class: 'table-card' + (t.closed ? ' closed' : '') },
      h('h2', {}, h('a', { href: `/tables/${t.id}`, 'aria-describedby': `tc-${t.id}` }, t.name)),
      h('dl', { id: `tc-${t.id}` },
        h('div', {}, h('dt', {}, tr('lobby.rules')), h('dd', {}, t.profile, t.test_mode ? h('span', { class: 'tag test' }, tr('lobby.test')) : null,
          // A table that departs from its own regulation says which rules (rules.Departure).
          r.departs?.length ? h('span', { class: 'tag departs', title: r.departs.join('\n') }, tr('lobby.departs', { rules: [...new Set(r.departs.map(d => d.split(':')[0]))].join(', ') })) : null)),
        h('div', {}, h('dt', {}, tr('lobby.stakes')), h('dd', {}, `${money(r.min_bet)} – ${money(r.max_bet)}`)),
        h('div', {}, h('dt', {}, tr('lobby.boxes')), h('dd', {}, tr('lobby.free', { n: free, boxes: r.boxes }), r.back_bets_per_box ? tr('lobby.backBets', { n: r.back_bets_per_box }) : tr('lobby.noBackBets'))),
        h('div', {}, h('dt', {}, tr('lobby.edge')), h('dd', {}, edge)),
        h('div', {}, h('dt', {}, tr('lobby.toDeal')), h('dd', { class: 'to-deal' }, needs.length ? needs.map(([k, p]) => tr(k, p)).join(' ') + (r.seat_idle_ms > 0 ? ' ' + tr('lobby.wait', { wait: duration(r.seat_idle_ms), rule: waitRule(t.profile) }) : '') : tr('lobby.anyone'))),
        h('div', {}, h('dt', {}, tr('lobby.now')), h('dd', { class: 'now' }, t.closed ? tr(t.pit_closed ? 'lobby.pitClosed' : 'lobby.closed') : inPlay ? tr('lobby.inPlay', { no: t.round.no }) : t.waiting ? tr('status.waiting', { why: waitingText(t.waiting, t.bets || []) }) : tr('lobby.seated', { n: (t.seats || []).length })))),
      miniFelt(r.boxes || 0, t.seats || []),
      h('a', { class: 'button', href: `/tables/${t.id}` }, tr(t.closed ? 'lobby.view' : free > 0 ? 'lobby.play' : 'lobby.watch')),
      // The staff of a table dealt from a physical shoe: its console.
      t.shoe?.physical && (session.user?.admin || session.user?.role) ? h('a', { class: 'button secondary console-link', href: `/tables/${t.id}/console` }, tr('console.title')) : null);
  }

  load();
  const timer = setInterval(load, 10000);
  return () => clearInterval(timer);
}

// miniFelt draws the table from above: its boxes on the arc, box 1 on the
// right, the taken ones filled.
function miniFelt(n, seats) {
  const svg = svgEl('svg', { class: 'mini-felt', viewBox: '0 0 200 104', 'aria-hidden': 'true' });
  svg.append(svgEl('path', { d: 'M 4,4 H 196 A 96,96 0 0 1 4,4 Z', class: 'mini-cloth' }));
  svg.append(svgEl('rect', { x: 88, y: 8, width: 24, height: 6, rx: 2, class: 'mini-dealer' }));
  for (let i = 1; i <= n; i++) {
    const th = boxAngle(i, n);
    const taken = seats.some(s => s.box === i);
    svg.append(svgEl('circle', { cx: (100 + 78 * Math.cos(th)).toFixed(1), cy: (6 + 74 * Math.sin(th)).toFixed(1), r: 7, class: taken ? 'mini-seat taken' : 'mini-seat' }));
  }
  return svg;
}
