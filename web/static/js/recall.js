// Game recall (GLI-19 §4.14, VE-22): the player's last rounds, and any
// settled round replayed step by step on the felt, clearly marked as a
// replay and never to be taken for a live game.

import { api, history, loggedIn, APIError } from './api.js';
import { h, replace, money, signed, netClass, isTyping, cardShort, optionText } from './dom.js';
import { TableState, Round } from './state.js';
import { Felt } from './felt.js';
import { navigate, toast } from './ui.js';
import { t, formatDate, refusal } from './i18n.js';

export function recallListPage(main) {
  const input = h('input', { id: 'round-id', name: 'round', placeholder: t('recall.placeholder'), pattern: '\\d+-\\d+', required: true, 'aria-describedby': 'round-hint' });
  const list = h('div', { class: 'recall-list' });
  replace(main,
    h('h1', {}, t('page.recall')),
    h('p', {}, t('recall.intro')),
    h('form', {
      class: 'recall-form', onsubmit: ev => {
        ev.preventDefault();
        const v = input.value.trim();
        if (/^\d+-\d+$/.test(v)) navigate(`/rounds/${v}`);
        else toast(t('recall.badID'));
      },
    },
    h('label', { for: 'round-id' }, t('recall.byID')), input, ' ', h('button', { class: 'button', type: 'submit' }, t('recall.replay')),
    h('span', { class: 'hint', id: 'round-hint' }, t('recall.idHint'))),
    list);

  (async () => {
    let rounds = null;
    try {
      rounds = loggedIn() ? await api('/api/me/rounds') : null; // when the server offers it
    } catch (e) {
      if (!(e instanceof APIError) || e.status !== 404) toast(refusal(e));
    }
    const local = !Array.isArray(rounds);
    if (local) rounds = history();
    if (!loggedIn()) {
      replace(list, h('p', {}, h('a', { href: '/login?next=/recall' }, t('page.login')), t('recall.toSee')));
      return;
    }
    if (!rounds.length) {
      replace(list, h('p', {}, t('recall.none')));
      return;
    }
    replace(list,
      h('table', { class: 'rounds' },
        h('caption', {}, t(local ? 'recall.lastLocal' : 'recall.last')),
        h('thead', {}, h('tr', {}, [t('recall.colRound'), t('recall.colTable'), t('recall.colWhen'), t('recall.colNet'), ''].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, rounds.map(r => h('tr', {},
          h('th', { scope: 'row' }, r.id, r.test ? h('span', { class: 'tag test' }, 'test') : null),
          h('td', {}, r.name || `table ${r.table}`, r.profile ? h('span', { class: 'hint' }, ` (${r.profile})`) : null),
          h('td', {}, r.at ? formatDate(r.at) : ''),
          h('td', { class: netClass(r.net) }, r.net === undefined ? '' : signed(r.net)),
          h('td', {}, h('a', { href: `/rounds/${r.id}`, 'aria-label': t('recall.replayRound', { round: r.id }) }, t('recall.replay'))))))));
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
  if (!step.events.length && d) return t('step.passes', { player: d.action.player, box: d.action.box, how: how(d) });
  const e = step.events[0];
  if (e.kind === 'stake' && e.bet === 'main') return t('step.bets', { bets: step.events.map(x => t('step.bet', { player: x.player, amount: money(x.amount), box: x.box })).join(', ') });
  if (e.kind === 'result') {
    return t('step.settlement', { results: step.events.map(x => t(x.hand > 1 ? 'step.resultHand' : 'step.result', { player: x.player, box: x.box, hand: x.hand, bet: t('betKind.' + x.bet), result: t('outcome.' + x.result), net: signed(x.amount || 0) })).join('; ') });
  }
  let text = says.map(s => s.text).join(' ') || describe(e);
  if (d) text += ` (${how(d)})`;
  return text;
}

function describe(e) {
  switch (e.kind) {
    case 'card': return e.box ? t('step.boxCard', { box: e.box, card: cardShort(e.card) }) : t('step.dealerCard', { card: cardShort(e.card) });
    case 'done': return t('step.over');
    case 'action': return t('step.action', { action: e.action.action, player: e.action.player || t('step.dealer') });
    default: return e.kind;
  }
}

function how(d) {
  const by = { player: t('step.byPlayer', { player: d.action.player || t('step.thePlayer') }), dealer: t('step.byDealer'), timeout: t('step.byTimeout') }[d.by] || d.by;
  return `${by}, ${formatDate(d.at, { timeStyle: 'medium' })}`;
}

export function replayPage(main, id) {
  replace(main, h('p', {}, t('recall.loading', { round: id })));
  let timer = 0;
  let onKey = null;
  (async () => {
    let rr;
    let res;
    try {
      rr = await api(`/api/rounds/${id}`);
      res = await api('/api/replay', { method: 'POST', body: { profile: rr.profile, options: rr.options, round: rr.round, record: rr.record } });
    } catch (e) {
      replace(main, h('h1', {}, t('felt.round', { round: id })), h('p', { class: 'form-error', role: 'alert' }, refusal(e)), h('p', {}, h('a', { href: '/recall' }, t('page.recall'))));
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
      s.setValues(res.values || {}); // the dealer's total by dealer_ace (AR-13)
      s.round = new Round(rr.round, rr.id, rr.test);
      s.round.dealer.staysOne = s.staysOne();
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
      counter.textContent = t('replay.step', { at, n: all.length });
      const line = at === 0 ? t('replay.before') : texts[at - 1];
      stepLine.textContent = t('replay.stepLine', { at, n: all.length, line });
      for (const [i, li] of [...list.children].entries()) {
        if (i === at - 1) li.setAttribute('aria-current', 'step');
        else li.removeAttribute('aria-current');
      }
      list.children[at - 1]?.scrollIntoView({ block: 'nearest' });
    }

    const play = h('button', { class: 'button', 'aria-pressed': 'false', onclick: () => toggle() }, t('replay.play'));
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
      play.textContent = t(timer ? 'replay.pause' : 'replay.play');
      play.setAttribute('aria-pressed', String(!!timer));
    }
    const controls = h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') },
      h('button', { class: 'button secondary', onclick: () => show(0), 'aria-keyshortcuts': 'Home' }, t('replay.first')),
      h('button', { class: 'button secondary', onclick: () => show(at - 1), 'aria-keyshortcuts': 'ArrowLeft' }, t('replay.back')),
      play,
      h('button', { class: 'button secondary', onclick: () => show(at + 1), 'aria-keyshortcuts': 'ArrowRight' }, t('replay.next')),
      h('button', { class: 'button secondary', onclick: () => show(all.length), 'aria-keyshortcuts': 'End' }, t('replay.last')),
      counter);
    replace(list, all.map((st, i) => h('li', {}, h('button', { class: 'link step', onclick: () => show(i + 1) }, texts[i]))));

    const players = Object.keys(rr.net || {}).sort();
    const summary = h('section', { class: 'replay-summary', 'aria-labelledby': 'sum-h' },
      h('h2', { id: 'sum-h' }, t('replay.record')),
      h('dl', { class: 'facts' },
        fact(t('recall.colRound'), t('replay.roundFact', { id: rr.id, round: rr.round, table: rr.table, name: rr.table_name })),
        fact(t('replay.rules'), rr.options && Object.keys(rr.options).length ? t('replay.rulesWith', { profile: rr.profile, options: Object.entries(rr.options).map(([k, v]) => optionText(k, v)).join(', ') }) : rr.profile),
        fact(t('replay.shoe'), t(rr.forced ? 'replay.shoeFactForced' : 'replay.shoeFact', { shoe: rr.shoe, n: rr.shoe_pos })),
        fact(t('replay.dealt'), formatDate(rr.dealt)),
        fact(t('replay.settled'), formatDate(rr.closed)),
        rr.void ? fact(t('result.void'), rr.reason || t('replay.voidDefault')) : null,
        fact(t('replay.cards'), (rr.cards || []).map(cardShort).join(' ')),
        fact(t('felt.dealer'), `${(rr.dealer || []).map(cardShort).join(' ')}`)),
      h('table', { class: 'rounds' },
        h('caption', {}, t('replay.bets')),
        h('thead', {}, h('tr', {}, [t('pit.player'), t('replay.colBox'), t('replay.colHand'), t('replay.colBet'), t('replay.colStake'), t('replay.colResult'), t('recall.colNet')].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, (rr.results || []).map(b => h('tr', {},
          h('td', {}, b.player), h('td', {}, b.box), h('td', {}, b.hand), h('td', {}, t('betKind.' + b.kind)), h('td', {}, money(b.stake)), h('td', {}, t('outcome.' + b.result)),
          h('td', { class: netClass(b.net) }, signed(b.net)))))),
      h('table', { class: 'rounds' },
        h('caption', {}, t('replay.wallets')),
        h('thead', {}, h('tr', {}, [t('pit.player'), t('replay.atDeal'), t('recall.colNet'), t('replay.afterPayout')].map(x => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, players.map(p => h('tr', {},
          h('td', {}, p), h('td', {}, money(rr.wallets_at_deal?.[p] ?? 0)), h('td', {}, signed(rr.net[p])), h('td', {}, money(rr.wallets_after?.[p] ?? 0)))))),
      h('p', { class: 'hint' }, t('replay.houseDecisions', { house: signed(rr.house), n: (rr.decisions || []).length })));

    replace(main,
      h('div', { class: 'replay-page' },
        h('div', { class: 'replay-banner', role: 'note' },
          h('strong', {}, t('replay.banner')), t('replay.bannerText', { id: rr.id, name: rr.table_name, dealt: formatDate(rr.dealt) }),
          t('replay.notLive'), rr.test ? t('replay.test') : ''),
        h('h1', {}, t('replay.heading', { round: rr.id })),
        felt.el,
        stepLine,
        controls,
        h('div', { class: 'replay-cols' },
          h('section', { 'aria-labelledby': 'steps-h' }, h('h2', { id: 'steps-h' }, t('replay.steps')), list),
          summary),
        h('p', {}, h('a', { href: '/recall' }, t('page.recall')), ' · ', h('a', { href: `/tables/${rr.table}` }, t('replay.backToTable')))));
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
