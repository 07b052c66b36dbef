// Game recall (GLI-19 §4.14, VE-22): the player's last rounds, and any
// settled round replayed step by step on the felt, clearly marked as a
// replay and never to be taken for a live game.

import { api, history, loggedIn, APIError } from './api.js';
import { h, replace, money, signed, netClass, isTyping, cardShort, optionText } from './dom.js';
import { TableState, Round } from './state.js';
import { Felt } from './felt.js';
import { navigate, toast } from './ui.js';

export function recallListPage(main) {
  const input = h('input', { id: 'round-id', name: 'round', placeholder: 'e.g. 2-17', pattern: '\\d+-\\d+', required: true, 'aria-describedby': 'round-hint' });
  const list = h('div', { class: 'recall-list' });
  replace(main,
    h('h1', {}, 'My rounds'),
    h('p', {}, 'Every settled round can be recalled and replayed step by step: its bets, every card in the order dealt, every decision with who made it, and the payouts.'),
    h('form', {
      class: 'recall-form', onsubmit: ev => {
        ev.preventDefault();
        const v = input.value.trim();
        if (/^\d+-\d+$/.test(v)) navigate(`/rounds/${v}`);
        else toast('A round ID is TABLE-ROUND, e.g. 2-17.');
      },
    },
    h('label', { for: 'round-id' }, 'Recall a round by its ID '), input, ' ', h('button', { class: 'button', type: 'submit' }, 'Replay'),
    h('span', { class: 'hint', id: 'round-hint' }, ' The ID is table and round: 2-17 is round 17 of table 2.')),
    list);

  (async () => {
    let rounds = null;
    try {
      rounds = loggedIn() ? await api('/api/me/rounds') : null; // when the server offers it
    } catch (e) {
      if (!(e instanceof APIError) || e.status !== 404) toast(e.message);
    }
    const local = !Array.isArray(rounds);
    if (local) rounds = history();
    if (!loggedIn()) {
      replace(list, h('p', {}, h('a', { href: '/login?next=/recall' }, 'Log in'), ' to see your rounds.'));
      return;
    }
    if (!rounds.length) {
      replace(list, h('p', {}, 'No round yet. Rounds you play appear here.'));
      return;
    }
    replace(list,
      h('table', { class: 'rounds' },
        h('caption', {}, local ? 'Your last rounds, as this browser saw them' : 'Your last rounds'),
        h('thead', {}, h('tr', {}, ['Round', 'Table', 'When', 'Net', ''].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, rounds.map(r => h('tr', {},
          h('th', { scope: 'row' }, r.id, r.test ? h('span', { class: 'tag test' }, 'test') : null),
          h('td', {}, r.name || `table ${r.table}`, r.profile ? h('span', { class: 'hint' }, ` (${r.profile})`) : null),
          h('td', {}, r.at ? new Date(r.at).toLocaleString() : ''),
          h('td', { class: netClass(r.net) }, r.net === undefined ? '' : signed(r.net)),
          h('td', {}, h('a', { href: `/rounds/${r.id}`, 'aria-label': `Replay round ${r.id}` }, 'Replay')))))));
  })();
  return null;
}

// steps turns a round's events into the steps of its replay: the bets
// together, each card, each decision (with who made it, when and how, from
// the recall's decisions; a pass in a window before the decision after it),
// the settlement together.
function steps(events, decisions) {
  const out = [];
  let di = 0;
  const declines = () => {
    while (di < decisions.length && decisions[di].action.action === 'decline') {
      out.push({ events: [], decision: decisions[di++] });
    }
  };
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.kind === 'stake' && e.bet === 'main' && last && last.events.every(x => x.kind === 'stake' && x.bet === 'main') && last.events.length) {
      last.events.push(e);
      continue;
    }
    if (e.kind === 'result' && last && last.events.length && last.events.every(x => x.kind === 'result')) {
      last.events.push(e);
      continue;
    }
    if ((e.kind === 'stake' || e.kind === 'window') && last && last.events.some(x => x.kind === 'action')) {
      last.events.push(e); // the stake a decision adds, the window it opens
      continue;
    }
    const step = { events: [e] };
    if (e.kind === 'action') {
      declines();
      const d = decisions[di];
      if (d && d.action.action !== 'decline') {
        step.decision = d;
        di++;
      }
    }
    out.push(step);
  }
  declines();
  return out;
}

function stepText(step, says, rr) {
  const d = step.decision;
  if (!step.events.length && d) return `${d.action.player} passes on box ${d.action.box} (${how(d)}).`;
  const e = step.events[0];
  if (e.kind === 'stake' && e.bet === 'main') return 'Bets: ' + step.events.map(x => `${x.player} ${money(x.amount)} on box ${x.box}`).join(', ') + '.';
  if (e.kind === 'result') {
    return 'Settlement: ' + step.events.map(x => `${x.player} box ${x.box}${x.hand > 1 ? ' hand ' + x.hand : ''} ${x.bet}: ${x.result} ${signed(x.amount || 0)}`).join('; ') + '.';
  }
  let text = says.map(s => s.text).join(' ') || describe(e);
  if (d) text += ` (${how(d)})`;
  return text;
}

function describe(e) {
  switch (e.kind) {
    case 'card': return e.box ? `Box ${e.box}: ${cardShort(e.card)}` : `Dealer: ${cardShort(e.card)}`;
    case 'done': return 'The round is over.';
    case 'action': return `${e.action.action} (${e.action.player || 'dealer'})`;
    default: return e.kind;
  }
}

function how(d) {
  const by = { player: `by ${d.action.player || 'the player'}`, dealer: 'by the dealer', timeout: 'by timeout: the default applied' }[d.by] || d.by;
  return `${by}, ${new Date(d.at).toLocaleTimeString()}`;
}

export function replayPage(main, id) {
  replace(main, h('p', {}, `Loading round ${id}…`));
  let timer = 0;
  let onKey = null;
  (async () => {
    let rr;
    let res;
    try {
      rr = await api(`/api/rounds/${id}`);
      res = await api('/api/replay', { method: 'POST', body: { profile: rr.profile, options: rr.options, round: rr.round, record: rr.record } });
    } catch (e) {
      replace(main, h('h1', {}, `Round ${id}`), h('p', { class: 'form-error', role: 'alert' }, e.message), h('p', {}, h('a', { href: '/recall' }, 'My rounds')));
      return;
    }
    const all = steps(res.events, rr.decisions || []);
    const felt = new Felt({ replay: true });
    felt.setValues(res.values);
    // Each box's holder: its first bettor (the deal puts holders first).
    const seats = [];
    for (const b of rr.bets || []) if (!seats.some(x => x.box === b.box)) seats.push({ box: b.box, player: b.player });
    const stepLine = h('p', { class: 'step-line', 'aria-live': 'polite' });
    const counter = h('span', { class: 'counter' });
    const list = h('ol', { class: 'steps' });
    let at = 0;

    // state builds the table as it stood after step k.
    const texts = [];
    function stateAt(k) {
      const s = new TableState(rr.table, '');
      s.snapshot('', 0, {
        id: rr.table, name: rr.table_name, profile: rr.profile, options: rr.options, test_mode: rr.test,
        rules: { boxes: res.boxes, back_bets_per_box: res.back_bets_per_box, min_bet: 0, max_bet: 0 },
        seats, bets: [], shoe: { id: rr.shoe },
      });
      s.round = new Round(rr.round, rr.id, rr.test);
      for (let i = 0; i < k; i++) {
        const says = [];
        for (const e of all[i].events) says.push(...s.apply(e));
        if (texts[i] === undefined) texts[i] = stepText(all[i], says, rr);
      }
      if (k === all.length && s.round) s.round.settled = true;
      return s;
    }
    stateAt(all.length); // every step's text

    function show(k) {
      at = Math.max(0, Math.min(all.length, k));
      const s = stateAt(at);
      felt.update(s);
      counter.textContent = `Step ${at} of ${all.length}`;
      const line = at === 0 ? 'The table before the deal.' : texts[at - 1];
      stepLine.textContent = `Replay, step ${at} of ${all.length}: ${line}`;
      for (const [i, li] of [...list.children].entries()) {
        if (i === at - 1) li.setAttribute('aria-current', 'step');
        else li.removeAttribute('aria-current');
      }
      list.children[at - 1]?.scrollIntoView({ block: 'nearest' });
    }

    const play = h('button', { class: 'button', 'aria-pressed': 'false', onclick: () => toggle() }, 'Play');
    function toggle(on = !timer) {
      clearInterval(timer);
      timer = 0;
      if (on) {
        if (at >= all.length) show(0);
        timer = setInterval(() => {
          if (at >= all.length) toggle(false);
          else show(at + 1);
        }, 900);
      }
      play.textContent = timer ? 'Pause' : 'Play';
      play.setAttribute('aria-pressed', String(!!timer));
    }
    const controls = h('div', { class: 'replay-controls', role: 'group', 'aria-label': 'Replay controls' },
      h('button', { class: 'button secondary', onclick: () => show(0), 'aria-keyshortcuts': 'Home' }, '« First'),
      h('button', { class: 'button secondary', onclick: () => show(at - 1), 'aria-keyshortcuts': 'ArrowLeft' }, '‹ Back'),
      play,
      h('button', { class: 'button secondary', onclick: () => show(at + 1), 'aria-keyshortcuts': 'ArrowRight' }, 'Next ›'),
      h('button', { class: 'button secondary', onclick: () => show(all.length), 'aria-keyshortcuts': 'End' }, 'Last »'),
      counter);
    replace(list, all.map((st, i) => h('li', {}, h('button', { class: 'link step', onclick: () => show(i + 1) }, texts[i]))));

    const players = Object.keys(rr.net || {}).sort();
    const summary = h('section', { class: 'replay-summary', 'aria-labelledby': 'sum-h' },
      h('h2', { id: 'sum-h' }, 'The record'),
      h('dl', { class: 'facts' },
        fact('Round', `${rr.id} (round ${rr.round} of table ${rr.table}, ${rr.table_name})`),
        fact('Rules', `${rr.profile}${rr.options && Object.keys(rr.options).length ? ' with ' + Object.entries(rr.options).map(([k, v]) => optionText(k, v)).join(', ') : ''}`),
        fact('Shoe', `${rr.shoe}, ${rr.shoe_pos} cards out before this round${rr.forced ? ' (forced cards, test mode)' : ''}`),
        fact('Dealt', new Date(rr.dealt).toLocaleString()),
        fact('Settled', new Date(rr.closed).toLocaleString()),
        rr.void ? fact('Void', rr.reason || 'void: every stake returned') : null,
        fact('Cards, in the order drawn', (rr.cards || []).map(cardShort).join(' ')),
        fact('Dealer', `${(rr.dealer || []).map(cardShort).join(' ')}`)),
      h('table', { class: 'rounds' },
        h('caption', {}, 'Bets and their settlement'),
        h('thead', {}, h('tr', {}, ['Player', 'Box', 'Hand', 'Bet', 'Stake', 'Result', 'Net'].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, (rr.results || []).map(b => h('tr', {},
          h('td', {}, b.player), h('td', {}, b.box), h('td', {}, b.hand), h('td', {}, b.kind), h('td', {}, money(b.stake)), h('td', {}, b.result),
          h('td', { class: netClass(b.net) }, signed(b.net)))))),
      h('table', { class: 'rounds' },
        h('caption', {}, 'Wallets'),
        h('thead', {}, h('tr', {}, ['Player', 'At the deal (stakes taken)', 'Net', 'After the payout'].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, players.map(p => h('tr', {},
          h('td', {}, p), h('td', {}, money(rr.wallets_at_deal?.[p] ?? 0)), h('td', {}, signed(rr.net[p])), h('td', {}, money(rr.wallets_after?.[p] ?? 0)))))),
      h('p', { class: 'hint' }, `The house: ${signed(rr.house)}. Decisions: ${(rr.decisions || []).length}, each with who made it (player, dealer or timeout) and when.`));

    replace(main,
      h('div', { class: 'replay-page' },
        h('div', { class: 'replay-banner', role: 'note' },
          h('strong', {}, 'REPLAY'), ` — round ${rr.id} at ${rr.table_name}, dealt ${new Date(rr.dealt).toLocaleString()}. `,
          'A recording of a finished round, not a live game.', rr.test ? ' Test mode.' : ''),
        h('h1', {}, `Replay of round ${rr.id}`),
        felt.el,
        stepLine,
        controls,
        h('div', { class: 'replay-cols' },
          h('section', { 'aria-labelledby': 'steps-h' }, h('h2', { id: 'steps-h' }, 'Step by step'), list),
          summary),
        h('p', {}, h('a', { href: '/recall' }, 'My rounds'), ' · ', h('a', { href: `/tables/${rr.table}` }, 'Back to the table'))));
    show(0);
    onKey = ev => {
      if (isTyping()) return;
      const k = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length }[ev.key];
      if (k !== undefined) {
        ev.preventDefault();
        show(k);
      }
    };
    document.addEventListener('keydown', onKey);
  })();
  return () => {
    clearInterval(timer);
    if (onKey) document.removeEventListener('keydown', onKey);
  };
}

function fact(k, v) {
  return h('div', {}, h('dt', {}, k), h('dd', {}, v));
}
