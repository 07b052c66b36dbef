// The live table: the felt, whose turn it is and the timer, the decisions
// the rules allow this player now (as buttons with keyboard shortcuts), the
// chips, and the dealer's calls (read out by screen readers).

import { api, session, bus, refreshMe, noteRound, loggedIn } from './api.js';
import { h, replace, money, chipSet, chipClass, chipLabel } from './dom.js';
import { TableState } from './state.js';
import { Prompt } from './prompt.js';
import { Status, Connection, Calls } from './status.js';
import { Felt } from './felt.js';
import { TableSocket } from './socket.js';
import { rulesPanel } from './rules.js';
import { toast, announce } from './ui.js';

const PACE_KEY = 'sabot.pace';

// pace is the pause after each card dealt, so that cards come one by one as
// from a shoe (?pace=MS sets it; 0 with reduced motion).
function dealPace() {
  const q = new URLSearchParams(location.search).get('pace');
  if (q !== null) sessionStorage.setItem(PACE_KEY, q);
  const v = sessionStorage.getItem(PACE_KEY);
  if (v !== null) return Number(v) || 0;
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : 380;
}

export function tablePage(main, id) {
  const me = session.user?.name || '';
  const state = new TableState(id, me);
  const pace = dealPace();
  let chip = 0;
  let sock = null;
  let poll = null;
  let rendered = 0;
  let frame = 0;
  const queue = [];
  let pumping = false;
  let walletTimer = 0;

  const felt = new Felt({ onSpot: me ? placeChip : null, onSit: me ? sit : null });
  const title = h('h1', { class: 'table-title' }, 'Table');
  const sub = h('p', { class: 'table-sub' });
  const conn = new Connection();
  const status = new Status(felt);
  const prompt = new Prompt(state, run);
  const betting = h('section', { class: 'betting', 'aria-label': 'Betting' });
  const calls = new Calls(announce);
  const rulesBox = h('div', { class: 'rules-slot' });

  replace(main,
    h('div', { class: 'table-page' },
      h('div', { class: 'table-head' },
        h('div', {}, title, sub),
        h('div', { class: 'table-links' }, conn.el, h('a', { href: '#rules' }, 'Rules and RTP'), h('a', { href: '/recall' }, 'My rounds'), h('a', { href: '/' }, 'Lobby'))),
      felt.el,
      h('div', { class: 'console' },
        h('div', { class: 'console-main' }, status.el, prompt.el, betting),
        h('aside', { class: 'console-side', 'aria-labelledby': 'calls-h' },
          h('h2', { id: 'calls-h' }, "Dealer's calls"), calls.el))),
    rulesBox);

  // Rules, the RTP and the strategy card; again when the pit changes the
  // table's configuration.
  function loadRules() {
    rulesPanel(rulesBox, id).then(values => {
      if (values) {
        felt.setValues(values);
        state.values = values;
        render(); // a decision already shown may take a stake now (VE-19)
      }
    });
  }
  loadRules();

  // ---- drawing ----

  function render() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  }

  function draw() {
    const t = state.table;
    if (!t) return;
    if (rendered === 0) {
      title.textContent = t.name;
      document.title = `${t.name} · sabot`;
    }
    rendered++;
    const r = t.rules;
    sub.textContent = `${t.profile} · stakes ${money(r.min_bet)} to ${money(r.max_bet)} · ${r.boxes} boxes${r.back_bets_per_box ? `, ${r.back_bets_per_box} back bets each` : ''}${t.test_mode ? ' · test mode' : ''}`;
    felt.update(state);
    status.draw(state);
    prompt.draw();
    drawBetting();
  }

  let bettingSig = '';
  function drawBetting() {
    const t = state.table;
    const open = !!me && !state.inPlay() && !t.closed;
    const mine = t.bets.filter(b => b.player === me);
    const seats = state.seatedBoxes();
    const chips = chipSet(t.rules.min_bet, t.rules.max_bet);
    if (!chips.includes(chip)) chip = chips[Math.min(1, chips.length - 1)];
    const sig = JSON.stringify([open, mine, seats, chip, chips, !!me, session.user?.wallet]);
    if (sig === bettingSig) return;
    bettingSig = sig;
    const hadFocus = betting.contains(document.activeElement) ? document.activeElement.dataset.fk : null;
    if (!me) {
      replace(betting, h('p', {}, h('a', { href: `/login?next=/tables/${id}` }, 'Log in or register'), ' to take a seat.'));
      return;
    }
    const rack = h('div', { class: 'rack', role: 'radiogroup', 'aria-label': 'Chip to place' },
      chips.map(v => h('button', {
        class: `chip big ${chipClass(v)}${v === chip ? ' chosen' : ''}`, role: 'radio', 'aria-checked': String(v === chip),
        'data-fk': `chip-${v}`, 'aria-label': `chip of ${money(v)}`, disabled: !open,
        onclick: () => { chip = v; bettingSig = ''; drawBetting(); },
        onkeydown: ev => chipKeys(ev, chips),
      }, chipLabel(v))));
    const list = mine.length
      ? h('ul', { class: 'mybets' }, mine.map(b => h('li', {},
        `Box ${b.box}${state.holder(b.box) && state.holder(b.box) !== me ? ` (behind ${state.holder(b.box)})` : ''}: ${money(b.stake)} `,
        h('button', { class: 'link', 'data-fk': `withdraw-${b.box}`, onclick: () => withdraw(b.box), disabled: !open, 'aria-label': `Withdraw your bet on box ${b.box}` }, 'Withdraw'))))
      : h('p', { class: 'hint' }, open ? 'Choose a chip, then click your spot on the felt: each click adds the chip.' : 'Bets open when the round is over.');
    replace(betting,
      h('h2', { class: 'visually-hidden' }, 'Betting'),
      h('div', { class: 'bet-row' }, open ? rack : null, h('p', { class: 'wallet-line' }, 'Balance ', h('strong', { class: 'balance' }, money(session.user?.wallet || 0)))),
      list,
      seats.length || mine.length ? h('button', { class: 'leave', 'data-fk': 'leave', onclick: leave }, 'Leave the table') : null);
    if (hadFocus) betting.querySelector(`[data-fk="${hadFocus}"]`)?.focus();
  }

  function chipKeys(ev, chips) {
    const i = chips.indexOf(chip);
    let j = i;
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') j = Math.min(chips.length - 1, i + 1);
    else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') j = Math.max(0, i - 1);
    else return;
    ev.preventDefault();
    chip = chips[j];
    bettingSig = '';
    drawBetting();
    betting.querySelector(`[data-fk="chip-${chip}"]`)?.focus();
  }

  // ---- commands ----

  async function run(op, fields) {
    if (!sock) return false;
    try {
      await sock.command(op, fields);
      return true;
    } catch (e) {
      toast(e.message);
      return false;
    }
  }

  // Chips clicked faster than the server answers add up: each click adds
  // to the stake last asked for, not only to the one the table shows yet.
  const asked = new Map();
  function placeChip(box) {
    const shown = state.table.bets.find(b => b.player === me && b.box === box)?.stake || 0;
    const cur = Math.max(shown, asked.get(box) || 0);
    const stake = Math.min(cur + chip, state.table.rules.max_bet);
    asked.set(box, stake);
    run('bet', { box, stake }).then(ok => { if (!ok) asked.delete(box); });
  }

  function sit(box) { run('sit', { box }); }
  function withdraw(box) { run('withdraw', { box }); }
  function leave() { run('leave', {}); }
  // Keyboard shortcuts: the keys shown on the decision buttons.
  document.addEventListener('keydown', prompt.onKey);

  // ---- the feed ----

  function onMessage(m) {
    if (m.type === 'snapshot') {
      queue.length = 0;
      state.snapshot(m.epoch, m.seq, m.table);
      conn.setEpoch(m.epoch);
      // What happened while this page was away: a round settled, money moved.
      noteSettled();
      refreshWallet();
      render();
      return;
    }
    if (m.type === 'error') {
      toast(m.error);
      return;
    }
    queue.push(m);
    pump();
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    while (queue.length) {
      const m = queue.shift();
      const e = m.event;
      for (const s of state.apply(e)) calls.say(s);
      after(e);
      render();
      if (pace > 0 && (e.kind === 'card' || e.kind === 'reveal') && !document.hidden) {
        await new Promise(res => setTimeout(res, pace));
      }
    }
    pumping = false;
  }

  function noteSettled() {
    const r = state.round;
    if (r && r.settled && r.net && me in r.net) {
      noteRound({ id: r.id, table: id, name: state.table.name, profile: state.table.profile, at: Date.now(), net: r.net[me], test: r.test });
    }
  }

  function after(e) {
    if (e.kind === 'deal' || (e.player === me && (e.kind === 'withdraw' || e.kind === 'leave'))) asked.clear();
    const mineNow = e.player === me && ['bet', 'withdraw', 'leave', 'stake'].includes(e.kind);
    if (e.kind === 'configure') {
      loadRules();
      refreshWallet(); // bets the new rules refuse come back
    }
    if (e.kind === 'settle') {
      noteSettled();
      refreshWallet();
      refreshShoe();
    } else if (mineNow) refreshWallet();
  }

  function refreshWallet() {
    clearTimeout(walletTimer);
    walletTimer = setTimeout(() => refreshMe(), 120);
  }

  async function refreshShoe() {
    try {
      const v = await api(`/api/tables/${id}`);
      if (state.table && v.shoe && (!state.table.shoe || v.shoe.id === state.table.shoe.id || !state.inPlay())) {
        state.table.shoe = v.shoe;
        render();
      }
    } catch { /* the next snapshot says it */ }
  }

  function onConn(st) {
    conn.show(st);
    if (st === 'unauthorized') toast('Your session is over: log in again.');
  }

  async function start() {
    if (loggedIn()) {
      sock = new TableSocket(id, onMessage, onConn);
      return;
    }
    // Watching without a session: the public snapshot, read again and again.
    onConn('watching');
    const load = async () => {
      try {
        const v = await api(`/api/tables/${id}`);
        state.snapshot('', undefined, v);
        render();
      } catch (e) {
        toast(e.message);
      }
    };
    await load();
    poll = setInterval(load, 2000);
  }
  start();

  const onWallet = () => { bettingSig = ''; render(); };
  bus.addEventListener('wallet', onWallet);
  const tick = setInterval(() => { if (state.table) status.draw(state); }, 250);

  return () => {
    clearInterval(tick);
    clearInterval(poll);
    clearTimeout(walletTimer);
    if (sock) sock.close();
    document.removeEventListener('keydown', prompt.onKey);
    bus.removeEventListener('wallet', onWallet);
  };
}

