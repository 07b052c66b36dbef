// The pit's floor: what the pit opens on. Each table's state, its players
// with their rating and flags (a Block button beside each), today's win
// against the theoretical, and the alarms. Read from GET /api/admin/floor
// (every table's state and seats, each seated player's block or exclusion
// and today's rating, the house's, and each table's win today against the
// theoretical, in one answer) and /api/admin/events (the watches' alarms:
// the return outside its band, a player's count).

import { api } from './api.js';
import { h, replace, money } from './dom.js';
import { toast } from './ui.js';
import { t, formatDate, refusal, sentence, has } from './i18n.js';
import { phaseName } from './status.js';

// ALARM_EVENTS are the significant events the floor shows as alarms: the
// watches' (docs/pit.md).
const ALARM_EVENTS = new Set(['rtp-outside', 'advantage-play', 'index-play', 'back-counting']);

// midnight is the start of the pit's day, in its own time.
function midnight(now = new Date()) {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

// seatName is how the floor names a box's holder: a walk-in by his box,
// as the dealer's console does, anyone else by name.
function seatName(player, box) {
  return player && player.startsWith('#') ? t('console.walkInAt', { box }) : player;
}

// floorPanel is the floor's section; done reports an action that went
// through (a block: the pit page reloads its events).
export function floorPanel(done) {
  const alarms = h('ul', { class: 'floor-alarms-list', id: 'floor-alarms' });
  const cards = h('div', { class: 'floor-tables', id: 'floor-tables' });
  const el = h('section', { class: 'pit-floor', id: 'floor', 'aria-labelledby': 'floor-h' },
    h('h2', { id: 'floor-h' }, t('floor.title')),
    h('section', { class: 'floor-alarms', 'aria-labelledby': 'floor-alarms-h' },
      h('h3', { id: 'floor-alarms-h' }, t('floor.alarms')), alarms),
    cards);

  let tables = [];
  let winOf = new Map(); // table → its day, the tables report's (the floor's)
  let ratingOf = new Map(); // player → today's rating (the floor's)
  let careOf = new Map(); // player → his block, exclusion (the floor's)
  let events = [];

  // loadFloor reads the tables, their days, their players' care and
  // today's ratings in one call (the server reads the reports behind the
  // days and the ratings at most once a minute).
  async function loadFloor() {
    const f = await api(`/api/admin/floor?from=${encodeURIComponent(midnight().toISOString())}`);
    tables = f.tables.map(x => x.table);
    winOf = new Map(f.tables.filter(x => x.today).map(x => [x.table.id, x.today]));
    careOf = new Map();
    ratingOf = new Map();
    for (const x of f.tables) {
      for (const p of x.players) {
        if (p.walk_in) continue;
        careOf.set(p.player, p);
        if (p.rating) ratingOf.set(p.player, p.rating);
      }
    }
  }

  // load reads the floor and its alarms again.
  async function load() {
    try {
      await loadFloor();
      const since = midnight().toISOString();
      events = (await api(`/api/admin/events?limit=200&since=${encodeURIComponent(since)}`)).filter(e => ALARM_EVENTS.has(String(e.payload?.event || '')));
    } catch (e) {
      toast(refusal(e));
    }
    draw();
  }

  async function block(name, blocked) {
    const reason = prompt(t(blocked ? 'pit.unblockReason' : 'pit.blockReason', { name }));
    if (!reason || !reason.trim()) return;
    try {
      await api(`/api/admin/players/${encodeURIComponent(name)}/${blocked ? 'unblock' : 'block'}`, { method: 'POST', body: { reason: reason.trim() } });
      done(t(blocked ? 'pit.unblocked' : 'pit.blocked', { name }));
      load();
    } catch (e) {
      toast(refusal(e));
    }
  }

  function flags(name) {
    const out = [];
    const p = careOf.get(name);
    if (p?.blocked) out.push(h('span', { class: 'tag flag blocked' }, t('floor.flagBlocked')));
    if (p?.exclusion) out.push(h('span', { class: 'tag flag excluded' }, t('kind.' + p.exclusion)));
    const kinds = new Set(events.filter(e => e.payload?.user === name).map(e => e.payload.event));
    for (const k of kinds) out.push(h('span', { class: 'tag flag alarm', dataset: { event: k } }, has('kind.' + k) ? t('kind.' + k) : k));
    return out;
  }

  function rating(name) {
    const r = ratingOf.get(name);
    if (!r) return t('floor.noRating');
    return t('floor.rating', { n: r.rounds, avg: money(r.avg_bet), win: money(r.win), theo: money(r.theo_win), skill: money(r.skill_theo) });
  }

  function playerRow(tb, s) {
    const walkIn = s.player.startsWith('#');
    const blocked = !!careOf.get(s.player)?.blocked;
    return h('li', { dataset: { player: s.player, box: s.box } },
      h('span', { class: 'floor-box' }, t('floor.box', { box: s.box })), ' ',
      h('strong', { class: 'floor-name' }, seatName(s.player, s.box)), ' ',
      h('span', { class: 'floor-rating' }, walkIn ? t('floor.walkIn') : rating(s.player)), ' ',
      h('span', { class: 'floor-flags' }, walkIn ? null : flags(s.player)), ' ',
      walkIn ? null : h('button', {
        type: 'button', class: 'button small secondary', dataset: { op: blocked ? 'unblock' : 'block', player: s.player },
        'aria-label': t(blocked ? 'floor.unblockName' : 'floor.blockName', { name: s.player }),
        onclick: () => block(s.player, blocked),
      }, blocked ? t('pit.unblock') : t('pit.block')));
  }

  function state(tb) {
    if (tb.closed) return t(tb.pit_closed ? 'pit.pitClosed' : 'pit.closed');
    const inPlay = tb.round && tb.round.phase !== 'done';
    const parts = [inPlay ? t('pit.inPlay', { round: tb.round.no, phase: phaseName(tb.round.phase).toLowerCase() }) : t('floor.between')];
    if (tb.shoe?.await) parts.push(t(tb.shoe.await === 'cut' ? 'floor.awaitCut' : 'floor.awaitAuthorise'));
    if (tb.corrections?.length) parts.push(t('floor.corrections', { n: tb.corrections.length }));
    return parts.join(' · ');
  }

  function today(tb) {
    const r = winOf.get(tb.id);
    if (!r || !r.rounds) return h('p', { class: 'floor-win' }, t('floor.noRounds'));
    return h('p', { class: 'floor-win' + (r.outside_band ? ' outside' : '') },
      t('floor.today', { n: r.rounds, win: money(r.win), theo: money(r.theo_win), low: money(r.band_low), high: money(r.band_high) }),
      r.outside_band ? [' ', h('span', { class: 'tag flag alarm' }, t('floor.outsideBand'))] : null);
  }

  function card(tb) {
    const seats = (tb.seats || []).filter(s => s.player);
    const hid = `floor-t${tb.id}`;
    return h('article', { class: 'floor-table' + (tb.closed ? ' closed' : ''), dataset: { table: tb.id }, 'aria-labelledby': hid },
      h('h3', { id: hid }, h('a', { href: `/tables/${tb.id}` }, tb.name), ' ', h('small', {}, `${tb.id} · ${tb.profile}`),
        tb.test_mode ? [' ', h('span', { class: 'tag test-mode' }, t('felt.test'))] : null),
      h('p', { class: 'floor-state' }, state(tb), ' · ', `${money(tb.rules?.min_bet)} – ${money(tb.rules?.max_bet)}`),
      today(tb),
      seats.length ? h('ul', { class: 'floor-players' }, seats.map(s => playerRow(tb, s)))
        : h('p', { class: 'empty' }, t('floor.nobody')));
  }

  function alarmItems() {
    const name = id => tables.find(x => x.id === id)?.name || String(id);
    const out = [];
    for (const tb of tables) {
      const r = winOf.get(tb.id);
      if (r?.outside_band) out.push(h('li', { dataset: { alarm: 'band', table: tb.id } }, t('floor.alarmBand', { name: tb.name, win: money(r.win), low: money(r.band_low), high: money(r.band_high) })));
      if (tb.corrections?.length) out.push(h('li', { dataset: { alarm: 'correction', table: tb.id } }, t('floor.alarmCorrection', { name: tb.name, n: tb.corrections.length })));
    }
    for (const e of events) {
      const ev = e.payload.event;
      out.push(h('li', { dataset: { alarm: ev, table: e.payload.table || e.table } },
        h('span', { class: 'nowrap' }, formatDate(e.at, { timeStyle: 'short' })), ' ',
        h('strong', {}, name(e.payload.table || e.table)), ': ',
        sentence('event.', e.words, e.summary)));
    }
    return out;
  }

  function draw() {
    const list = alarmItems();
    replace(alarms, list.length ? list : h('li', { class: 'empty' }, t('floor.noAlarms')));
    replace(cards, tables.length ? tables.map(card) : h('p', { class: 'empty' }, t('floor.noTables')));
  }

  return { el, load };
}
