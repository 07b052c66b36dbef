// The pit's reports (docs/pit.md): each table's results against
// its theoretical win and band, with a chart of the two; the players'
// ratings; their bets against the count, with a chart of a player's
// average bet at each true count. Each run as a job of the server's
// (POST /api/admin/reports/jobs, polled); the server computes everything,
// the page only draws it.

import { api, loggedIn, session } from './api.js';
import { h, svgEl, replace, money } from './dom.js';
import { t, formatPercent } from './i18n.js';

// A day as the period's default: from yesterday at this hour to now.
function isoMinute(d) {
  const p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function reportsPage(main) {
  if (!loggedIn() || !session.user?.admin) {
    replace(main, h('h1', {}, t('reports.title')),
      h('p', { class: 'empty' }, t('pit.adminsOnly'), loggedIn() ? t('pit.logInAsOne') : h('a', { href: '/login?next=/pit/reports' }, t('pit.logIn'))));
    return () => {};
  }
  const now = new Date();
  const from = h('input', { id: 'report-from', type: 'datetime-local', value: isoMinute(new Date(now - 86400e3)) });
  const to = h('input', { id: 'report-to', type: 'datetime-local', value: isoMinute(new Date(now.getTime() + 60e3)) });
  const form = h('form', { class: 'pit-form report-period', id: 'report-period' },
    h('label', {}, t('reports.from'), ' ', from), h('label', {}, t('reports.to'), ' ', to),
    h('button', { type: 'submit', class: 'button' }, t('reports.show')));
  const tables = h('section', { class: 'report-tables', 'aria-labelledby': 'report-tables-h' });
  const players = h('section', { class: 'report-players', 'aria-labelledby': 'report-players-h' });
  const advantage = h('section', { class: 'report-advantage', 'aria-labelledby': 'report-advantage-h' });
  let live = true;

  // Each report runs as a job (POST /api/admin/reports/jobs), polled for
  // the rounds it has read, then drawn in its own section: a report that
  // fails shows its error there and the others are still drawn. One job at a time is an administrator's: one after the other.
  const reports = [
    { name: 'tables', el: tables, title: 'reports.tables', hid: 'report-tables-h', draw: drawTables },
    { name: 'players', el: players, title: 'reports.players', hid: 'report-players-h', draw: drawPlayers },
    { name: 'advantage', el: advantage, title: 'reports.advantage', hid: 'report-advantage-h', draw: drawAdvantage },
  ];
  let loading = 0; // the load running: an older one stops
  async function load() {
    const mine = ++loading;
    const body = { from: new Date(from.value).toISOString(), to: new Date(to.value).toISOString() };
    for (const r of reports) status(r, t('reports.waiting'));
    for (const r of reports) {
      if (!live || mine !== loading) return;
      try {
        const out = await runJob(r, body, () => live && mine === loading);
        if (!live || mine !== loading) return;
        if (out !== undefined) r.draw(r.el, out);
      } catch (e) {
        if (!live || mine !== loading) return;
        replace(r.el, h('h2', { id: r.hid }, t(r.title)),
          h('p', { class: 'report-error', role: 'alert' }, t('reports.failed', { error: e.message })));
      }
    }
  }
  // status shows a report's section as it stands: its title and a line.
  function status(r, line) {
    replace(r.el, h('h2', { id: r.hid }, t(r.title)), h('p', { class: 'report-progress', role: 'status' }, line));
  }
  // runJob starts a report's job and polls it until it is done: its result
  // (undefined if the page moved on), or it throws the job's error.
  async function runJob(r, body, current) {
    const job = await api('/api/admin/reports/jobs', { method: 'POST', body: { report: r.name, ...body } });
    status(r, t('reports.running'));
    for (let wait = 250; ; wait = Math.min(2000, wait * 2)) {
      await new Promise(ok => setTimeout(ok, wait));
      if (!current()) {
        api('/api/admin/reports/jobs/' + encodeURIComponent(job.id), { method: 'DELETE' }).catch(() => {});
        return undefined;
      }
      const v = await api('/api/admin/reports/jobs/' + encodeURIComponent(job.id));
      if (v.done) {
        if (v.error) throw new Error(v.error);
        return v.result;
      }
      status(r, v.rounds > 0 ? t('reports.progress', { rounds: v.rounds }) : t('reports.running'));
    }
  }
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    load();
  });
  replace(main, h('h1', {}, t('reports.title')), h('p', {}, h('a', { href: '/pit' }, t('reports.backToPit'))), form, tables, players, advantage);
  load();
  return () => { live = false; };
}

function cell(x, cls) { return h('td', cls ? { class: cls } : {}, x); }

function drawTables(el, r) {
  const head = ['reports.table', 'reports.profile', 'reports.rounds', 'reports.stakes', 'reports.drop', 'reports.win', 'reports.hold',
    'reports.theo', 'reports.band', 'reports.rtp', 'reports.certified'].map(k => h('th', { scope: 'col' }, t(k)));
  const row = (name, x) => h('tr', { dataset: { table: String(x.table || '') }, class: x.outside_band ? 'outside' : '' },
    h('th', { scope: 'row' }, name), cell(x.profile || ''), cell(x.rounds, 'num'), cell(money(x.stakes), 'num'),
    cell(x.drop ? money(x.drop) : '–', 'num'), cell(money(x.win), 'num win'), cell(formatPercent(x.hold_pct / 100), 'num'),
    cell(money(x.theo_win), 'num theo'), cell(`${money(x.band_low)} – ${money(x.band_high)}`, 'num'),
    cell(formatPercent(x.rtp), 'num'), cell(formatPercent(x.certified_rtp, 3), 'num'));
  // A test-mode table's rounds (forced cards allowed) are counted, marked
  // so.
  const rows = r.tables.map(x => row([`${x.table} ${x.name || ''}`, x.test_mode ? h('span', { class: 'tag test-mode' }, t('felt.test')) : null], x));
  // A profile's row names its rule set by the options in which it differs
  // from the profile (report.RulesLabel: "spain · decks=4").
  for (const x of r.profiles) rows.push(row(t('reports.profileRow', { profile: x.label || x.profile }), x));
  rows.push(row(t('reports.total'), r.total));
  replace(el, h('h2', { id: 'report-tables-h' }, t('reports.tables')),
    r.tables.length === 0 ? h('p', { class: 'empty' }, t('reports.none')) : [
      h('table', { class: 'report' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, rows)),
      winChart(r.tables),
      h('p', { class: 'hint' }, t('reports.bandHint', { z: r.band_z })),
    ]);
}

// winChart draws each table's win against its band: the band a bar, the
// theoretical win a tick, the actual win a dot (red outside the band).
function winChart(rows) {
  const W = 640, rowH = 28, left = 150, right = 20;
  const lo = Math.min(0, ...rows.map(x => Math.min(x.band_low, x.win)));
  const hi = Math.max(0, ...rows.map(x => Math.max(x.band_high, x.win)));
  const span = hi - lo || 1;
  const X = v => left + (v - lo) / span * (W - left - right);
  const svg = svgEl('svg', { class: 'report-chart win-chart', viewBox: `0 0 ${W} ${rows.length * rowH + 24}`, role: 'img', 'aria-label': t('reports.chartWin') });
  svg.append(svgEl('line', { x1: X(0), x2: X(0), y1: 0, y2: rows.length * rowH, class: 'zero' }));
  rows.forEach((x, i) => {
    const y = i * rowH + rowH / 2;
    const g = svgEl('g', { class: 'table-win' + (x.outside_band ? ' outside' : ''), 'data-table': x.table });
    g.append(svgEl('text', { x: 4, y: y + 4, class: 'label' }, `${x.table} ${x.name || ''}`),
      svgEl('rect', { x: X(x.band_low), y: y - 6, width: Math.max(1, X(x.band_high) - X(x.band_low)), height: 12, class: 'band' }),
      svgEl('line', { x1: X(x.theo_win), x2: X(x.theo_win), y1: y - 9, y2: y + 9, class: 'theo' }),
      svgEl('circle', { cx: X(x.win), cy: y, r: 5, class: 'actual' }),
      svgEl('title', {}, t('reports.chartRow', { win: money(x.win), theo: money(x.theo_win), low: money(x.band_low), high: money(x.band_high) })));
    svg.append(g);
  });
  const ly = rows.length * rowH + 16;
  svg.append(svgEl('circle', { cx: left, cy: ly - 4, r: 4, class: 'actual' }), svgEl('text', { x: left + 8, y: ly, class: 'legend' }, t('reports.win')),
    svgEl('rect', { x: left + 120, y: ly - 9, width: 24, height: 10, class: 'band' }), svgEl('text', { x: left + 150, y: ly, class: 'legend' }, t('reports.band')),
    svgEl('line', { x1: left + 300, x2: left + 300, y1: ly - 10, y2: ly + 2, class: 'theo' }), svgEl('text', { x: left + 306, y: ly, class: 'legend' }, t('reports.theo')));
  return svg;
}

function duration(s) {
  const hh = Math.floor(s / 3600), mm = Math.floor(s % 3600 / 60);
  return t('reports.duration', { h: hh, m: String(mm).padStart(2, '0') });
}

function drawPlayers(el, r) {
  const head = ['reports.player', 'reports.sessions', 'reports.time', 'reports.rounds', 'reports.avgBet', 'reports.theo', 'reports.win',
    'reports.decisions', 'reports.errors', 'reports.errorCost', 'reports.skillTheo'].map(k => h('th', { scope: 'col' }, t(k)));
  const rows = r.players.map(x => h('tr', { dataset: { player: x.player } },
    h('th', { scope: 'row' }, x.player), cell(x.sessions, 'num'), cell(duration(x.seconds_played), 'num'), cell(x.rounds, 'num'),
    cell(money(x.avg_bet), 'num'), cell(money(x.theo_win), 'num'), cell(money(x.win), 'num'), cell(x.decisions, 'num'),
    cell(x.errors, 'num'), cell(money(x.error_cost), 'num error-cost'), cell(money(x.skill_theo), 'num skill-theo')));
  replace(el, h('h2', { id: 'report-players-h' }, t('reports.players')),
    r.players.length === 0 ? h('p', { class: 'empty' }, t('reports.none')) :
      [h('table', { class: 'report' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, rows)), h('p', { class: 'hint' }, t('reports.errorHint'))]);
}

function drawAdvantage(el, r) {
  const chart = h('div', { class: 'count-chart' });
  const head = ['reports.player', 'reports.rounds', 'reports.hiLo', 'reports.hiOpt', 'reports.indexPlays', 'reports.indexZ', 'reports.backBets', 'reports.backZ',
    'reports.flag'].map(k => h('th', { scope: 'col' }, t(k)));
  const rows = r.players.map(x => {
    const show = h('button', { type: 'button', class: 'button small', onclick: () => replace(chart, countChart(x)) }, t('reports.chartShow'));
    const ix = x.index, b = x.back;
    // The index plays: taken when the count called for them, of those
    // decisions; taken otherwise, of the others.
    const index = h('td', { class: 'num index', title: t('reports.indexTitle', { n: ix.decisions }) },
      t('reports.indexCell', { took: ix.deviated_when_said, said: ix.count_said, other: ix.deviated_when_not, not: ix.decisions - ix.count_said }));
    const back = b ? h('td', { class: 'num back', title: t('reports.backTitle', { backed: b.count_backed.toFixed(2), other: b.count_other.toFixed(2) }) },
      t('reports.backCell', { backed: b.backed, n: b.rounds })) : cell('—', 'num back');
    return h('tr', { dataset: { player: x.player }, class: x.flagged ? 'flagged' : '' },
      h('th', { scope: 'row' }, x.player), cell(x.hi_lo.rounds, 'num'), cell(x.hi_lo.z.toFixed(2), 'num'), cell(x.hi_opt_ii.z.toFixed(2), 'num'),
      index, cell(ix.z.toFixed(2), 'num index-z'), back, cell(b ? b.z.toFixed(2) : '—', 'num back-z'),
      cell(x.flagged ? t('reports.flagged') : '', 'flag'), h('td', {}, show));
  });
  const first = r.players.find(x => x.flagged) || r.players[0];
  if (first) replace(chart, countChart(first));
  replace(el, h('h2', { id: 'report-advantage-h' }, t('reports.advantage')),
    r.players.length === 0 ? h('p', { class: 'empty' }, t('reports.none')) :
      [h('table', { class: 'report' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, rows)), chart,
        h('p', { class: 'hint' }, t('reports.advantageHint', { z: r.flag_z }))]);
}

// countChart draws a player's average bet at each Hi-Lo true count.
function countChart(x) {
  const W = 480, H = 180, pad = 24;
  const buckets = x.by_count;
  const top = Math.max(1, ...buckets.map(b => b.avg_bet));
  const bw = (W - 2 * pad) / 13;
  const svg = svgEl('svg', { class: 'report-chart count-bars', viewBox: `0 0 ${W} ${H + 20}`, role: 'img', 'aria-label': t('reports.chartCount', { player: x.player }) });
  for (const b of buckets) {
    const hgt = b.avg_bet / top * (H - pad);
    const cx = pad + (b.count + 6) * bw;
    svg.append(svgEl('rect', { x: cx + 2, y: H - hgt, width: bw - 4, height: hgt, class: 'bet', 'data-count': b.count },
      svgEl('title', {}, t('reports.chartBar', { count: b.count, bet: money(b.avg_bet), rounds: b.rounds }))));
  }
  for (let c = -6; c <= 6; c += 2) svg.append(svgEl('text', { x: pad + (c + 6) * bw + bw / 2, y: H + 14, class: 'legend', 'text-anchor': 'middle' }, String(c)));
  return h('figure', {}, svg, h('figcaption', {}, t('reports.chartCount', { player: x.player })));
}
