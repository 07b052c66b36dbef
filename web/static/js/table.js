// The live table: the felt, whose turn it is and the timer, the decisions
// the rules allow this player now (as buttons with keyboard shortcuts), the
// chips, and the dealer's calls (read out by screen readers).

import { api, session, bus, refreshMe, noteRound, loggedIn } from './api.js';
import { h, replace, money, parseMoney, chipSet, chipClass, chipLabel } from './dom.js';
import { TableState } from './state.js';
import { Felt } from './felt.js';
import { TableSocket } from './socket.js';
import { rulesPanel } from './rules.js';
import { toast, announce } from './ui.js';

// What each decision is called, its key, and in which order it is offered.
const ACTIONS = {
  hit: { label: 'Hit', key: 'h' },
  stand: { label: 'Stand', key: 's' },
  double: { label: 'Double', key: 'd' },
  split: { label: 'Split', key: 'p' },
  surrender: { label: 'Surrender', key: 'r' },
  insure: { label: 'Insure', key: 'i' },
  'even-money': { label: 'Even money', key: 'e' },
  challenge: { label: 'Challenge', key: 'c' },
};
const ORDER = ['hit', 'stand', 'double', 'split', 'surrender', 'insure', 'even-money', 'challenge', 'declare'];

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
  const conn = h('span', { class: 'conn', role: 'status' });
  const status = h('div', { class: 'status' });
  const statusText = h('p', { class: 'status-text', id: 'status-text' });
  const statusTimer = h('div', { class: 'timer', role: 'timer', 'aria-label': 'time left to decide' }, h('span'));
  status.append(statusText, statusTimer);
  const prompt = h('section', { class: 'prompt', 'aria-label': 'Your decision', hidden: true });
  const betting = h('section', { class: 'betting', 'aria-label': 'Betting' });
  const log = h('ol', { class: 'calls', 'aria-label': "The dealer's calls, the latest first" });
  const rulesBox = h('div', { class: 'rules-slot' });

  replace(main,
    h('div', { class: 'table-page' },
      h('div', { class: 'table-head' },
        h('div', {}, title, sub),
        h('div', { class: 'table-links' }, conn, h('a', { href: '#rules' }, 'Rules and RTP'), h('a', { href: '/recall' }, 'My rounds'), h('a', { href: '/' }, 'Lobby'))),
      felt.el,
      h('div', { class: 'console' },
        h('div', { class: 'console-main' }, status, prompt, betting),
        h('aside', { class: 'console-side', 'aria-labelledby': 'calls-h' },
          h('h2', { id: 'calls-h' }, "Dealer's calls"), log))),
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
    drawStatus();
    drawPrompt();
    drawBetting();
  }

  function deadline() {
    if (state.turn?.deadline) {
      const total = inWindow(state.turn.phase) ? state.table.rules.window_ms : state.table.rules.decision_ms;
      return { at: state.turn.deadline, total };
    }
    if (!state.inPlay() && state.bettingDeadline) return { at: state.bettingDeadline, total: state.table.rules.bet_window_ms };
    return null;
  }

  function drawStatus() {
    const t = state.table;
    const d = deadline();
    const left = d ? Math.max(0, Math.ceil((d.at - Date.now()) / 1000)) : 0;
    let text;
    if (t.closed) text = `This table is out of service: ${t.closed}`;
    else if (state.inPlay()) {
      const tn = state.turn;
      if (!tn) text = 'Dealing…';
      else if (tn.players.includes(me)) text = `Your decision${tn.box ? ' on ' + state.label(tn.box, tn.hand || 1) : ''} — ${left} s. If time runs out: ${tn.default || 'the default'}.`;
      else text = `${phaseName(tn.phase)}: waiting for ${tn.players.join(', ') || 'the dealer'}${tn.box ? ' (' + state.label(tn.box, tn.hand || 1) + ')' : ''} — ${left} s`;
    } else if (state.bettingDeadline) text = `Place your bets — no more bets in ${left} s.`;
    else if (!me) text = 'Log in to sit and bet.';
    else if (state.seatedBoxes().length) text = 'Place your bets: choose a chip, then your spot.';
    else text = t.rules.back_bets_per_box ? 'Take a free seat, or bet behind a seated player.' : 'Take a free seat to play.';
    if (statusText.textContent !== text) statusText.textContent = text;
    statusTimer.hidden = !d;
    if (d) {
      const frac = Math.max(0, Math.min(1, (d.at - Date.now()) / d.total));
      statusTimer.firstChild.style.width = `${frac * 100}%`;
      statusTimer.classList.toggle('low', frac < 0.25);
      statusTimer.setAttribute('aria-valuetext', `${left} seconds`);
    }
    const tb = state.turn && state.turn.phase !== 'insurance' && state.turn.phase !== 'challenge' ? state.turn.box : 0;
    felt.setTimer(tb, d && state.turn ? (d.at - Date.now()) / d.total : null);
  }

  // The decisions this player may make now, grouped by box and hand.
  let promptSig = '';
  function drawPrompt() {
    const legal = state.myLegal();
    const sig = JSON.stringify([legal, state.turn?.phase, state.turn?.box, state.turn?.hand, doubleForLess()]);
    if (sig === promptSig) return;
    promptSig = sig;
    prompt.hidden = legal.length === 0;
    if (!legal.length) {
      prompt.replaceChildren();
      return;
    }
    const phase = state.turn.phase;
    const groups = new Map();
    for (const l of legal) {
      const k = `${l.box}/${l.hand || 1}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(l);
    }
    const hadFocus = prompt.contains(document.activeElement) ? document.activeElement.dataset.fk : null;
    const rows = [];
    let first = true;
    for (const [k, ls] of groups) {
      const [box, hand] = k.split('/').map(Number);
      rows.push(promptRow(phase, box, hand, ls, first));
      first = false;
    }
    replace(prompt, h('h2', { class: 'prompt-h' }, promptHeading(phase)), rows);
    const again = hadFocus && prompt.querySelector(`[data-fk="${hadFocus}"]`);
    if (again) again.focus();
    else if (!isTyping() && (document.activeElement === document.body || main.querySelector('.table-page')?.contains(document.activeElement))) {
      prompt.querySelector('button')?.focus({ preventScroll: true });
    }
  }

  function promptHeading(phase) {
    return {
      playing: 'Your decision',
      insurance: 'Insurance?',
      challenge: 'The challenge (Desafío)?',
      follow: 'Follow the box holder?',
      'ace-choice': 'Count the Ace 1 or 11?',
    }[phase] || 'Your decision';
  }

  function promptRow(phase, box, hand, ls, keys) {
    const r = state.round;
    const x = r?.hand(box, hand);
    const up = r?.dealer.cards[0];
    const myMain = r?.bets.find(b => b.player === me && b.box === box && (b.hand || 1) === hand && (b.kind === 'main' || b.kind === 'split'));
    let text;
    switch (phase) {
      case 'insurance':
        text = `Box ${box}: the dealer shows ${up && up[0] === 'A' ? 'an Ace' : 'a ten'}. ${ls.some(l => l.action === 'insure') ? `Insurance pays 2 to 1, up to ${money(ls.find(l => l.action === 'insure').stake)}.` : ''} ${ls.some(l => l.action === 'even-money') ? 'Your blackjack may take even money now.' : ''}`;
        break;
      case 'challenge':
        text = `Box ${box}: your first card is an Ace. Bet half your stake${myMain ? ` (${money(Math.floor(myMain.stake / 2))})` : ''} that the next card is a ten-value; it pays 2 to 1 (AR-10).`;
        break;
      case 'follow':
        text = `Box ${box}: the box holder ${r?.followKind === 'double' ? 'doubles' : 'splits'}. Follow with your own stake${myMain ? ` (${money(myMain.stake)})` : ''}, or stay as you are (VE-11, VE-12).`;
        break;
      case 'ace-choice':
        text = `${state.label(box, hand)}: an Ace on your split ten. Count it 1 (the hand is 11 and may draw or double) or 11 (VE-13).`;
        break;
      default:
        text = `${state.label(box, hand)}: ${x?.playerTotal() || ''} against the dealer's ${r?.dealer.dealerTotal() || '?'}.`;
        if (ls.some(l => l.action === 'declare') && !ls.some(l => l.action === 'hit')) text += ' Declare your Ace 1 or 11 first (AR-11).';
    }
    const buttons = [];
    let stakeInput = null;
    let insureField = null;
    let doubleField = null;
    const sorted = [...ls].sort((a, b) => ORDER.indexOf(a.action) - ORDER.indexOf(b.action) || (a.value || 0) - (b.value || 0));
    for (const l of sorted) {
      let label;
      let key;
      if (l.action === 'declare') {
        label = `Ace counts ${l.value}`;
        key = l.value === 1 ? '1' : 'e';
      } else if (phase === 'follow') {
        label = l.action === 'double' ? 'Double too' : 'Split too';
        key = ACTIONS[l.action].key;
      } else {
        ({ label, key } = ACTIONS[l.action] || { label: l.action, key: '' });
      }
      const fk = `act-${box}-${hand}-${l.action}-${l.value || ''}`;
      let field = null;
      if (l.action === 'insure') {
        stakeInput = h('input', { type: 'text', inputmode: 'decimal', class: 'stake-input', id: `ins-${box}`, 'data-fk': `ins-${box}`, value: plainMoney(l.stake), autocomplete: 'off', 'aria-describedby': `ins-${box}-error`, 'aria-label': `Insurance stake on box ${box}, at most ${money(l.stake)}` });
        field = insureField = stakeField(stakeInput, 'insurance', 1, l.stake, fk);
      }
      if (l.action === 'double' && doubleForLess() && myMain) {
        // VE-19: a double may stake less than the original (paid at its
        // amount) or more (the excess is neither paid nor lost).
        const max = state.table.rules.max_bet;
        const id = `dbl-${box}-${hand}`;
        const input = h('input', {
          type: 'text', inputmode: 'decimal', class: 'stake-input double-stake', id, autocomplete: 'off', 'data-fk': id,
          value: plainMoney(Math.min(myMain.stake, max)), 'aria-describedby': `${id}-range ${id}-error`,
        });
        field = doubleField = stakeField(input, 'double', 1, max, fk);
        field.el = h('div', { class: 'stake-field' },
          h('label', { class: 'stake-label', for: id }, phase === 'follow' ? 'Your double stake ' : 'Double stake ', input),
          h('p', { class: 'stake-range', id: `${id}-range` },
            `From ${money(1)} to ${money(max)} (VE-19): less than ${money(myMain.stake)} is paid at its amount; above it, the excess is neither paid nor lost. Enter doubles; ↑ ↓ change it by ${money(state.table.rules.min_bet || 100)}.`),
          field.error);
      }
      buttons.push(h('button', {
        class: `act act-${l.action}`, 'data-fk': fk, 'data-key': keys ? key : null,
        'aria-keyshortcuts': keys && key ? key.toUpperCase() : null,
        onclick: () => act(l, field),
      }, label, keys && key ? h('kbd', { 'aria-hidden': 'true' }, key.toUpperCase()) : null));
    }
    if (inWindow(phase)) {
      buttons.push(h('button', { class: 'act act-decline', 'data-fk': `decline-${box}`, 'data-key': keys ? 'n' : null, 'aria-keyshortcuts': keys ? 'N' : null, onclick: () => decline(box, hand) },
        phase === 'ace-choice' ? 'Keep 11' : 'No, thanks', keys ? h('kbd', { 'aria-hidden': 'true' }, 'N') : null));
    }
    return h('div', { class: 'prompt-row', role: 'group', 'aria-label': text },
      h('p', { class: 'prompt-text' }, text),
      stakeInput ? h('label', { class: 'stake-label', for: stakeInput.id }, 'Insurance stake ', stakeInput) : null,
      insureField ? insureField.error : null,
      doubleField ? doubleField.el : null,
      h('div', { class: 'actions' }, buttons));
  }

  // doubleForLess says whether a double may take a stake of its own
  // (VE-19), once the table's rules are known.
  function doubleForLess() {
    return state.values?.double_for_less === 'true';
  }

  // stakeField reads a decision's stake from its input: an amount from min
  // to max (and within the balance), else a one-line error beside it, read
  // out, and nothing is sent. Enter decides; the arrow keys step the amount
  // by the table minimum.
  function stakeField(input, what, min, max, fk) {
    const error = h('p', { class: 'stake-error', id: `${input.id}-error`, role: 'alert' });
    const step = state.table.rules.min_bet || 100;
    input.addEventListener('keydown', ev => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        prompt.querySelector(`[data-fk="${CSS.escape(fk)}"]`)?.click();
      } else if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') {
        ev.preventDefault();
        const v = parseMoney(input.value);
        const base = Number.isFinite(v) ? v : min;
        const next = ev.key === 'ArrowUp' ? Math.min(max, base + step) : Math.max(min, base - step);
        input.value = plainMoney(next);
        clear();
      }
    });
    input.addEventListener('input', () => clear());
    function clear() {
      error.textContent = '';
      input.removeAttribute('aria-invalid');
    }
    function fail(text) {
      error.textContent = text;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      input.select();
      return null;
    }
    return {
      input, error,
      read() {
        const v = parseMoney(input.value);
        if (!Number.isFinite(v)) return fail(`The ${what} stake is an amount, from ${money(min)} to ${money(max)}, e.g. ${plainMoney(Math.max(min, Math.min(max, 250)))}.`);
        if (v < min || v > max) return fail(`The ${what} stake must be from ${money(min)} to ${money(max)}: ${money(v)} is out of range.`);
        const wallet = session.user?.wallet;
        if (typeof wallet === 'number' && v > wallet) return fail(`Your balance is ${money(wallet)}: not enough to stake ${money(v)} on the ${what}.`);
        clear();
        return v;
      },
    };
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
  function decline(box, hand) { run('decline', { box, hand }); }

  function act(l, field) {
    const fields = { action: l.action, box: l.box, hand: l.hand || 1 };
    if (l.action === 'declare') fields.value = l.value;
    if (l.action === 'insure') fields.stake = l.stake;
    if (field) {
      const v = field.read();
      if (v === null) return;
      fields.stake = v;
    }
    run('act', fields);
  }

  // Keyboard shortcuts: the keys shown on the decision buttons.
  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || isTyping()) return;
    const b = prompt.querySelector(`button[data-key="${CSS.escape(ev.key.toLowerCase())}"]`);
    if (b && !b.disabled) {
      ev.preventDefault();
      b.click();
    }
  }
  document.addEventListener('keydown', onKey);

  // ---- the feed ----

  function onMessage(m) {
    if (m.type === 'snapshot') {
      queue.length = 0;
      state.snapshot(m.epoch, m.seq, m.table);
      conn.dataset.epoch = m.epoch || '';
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
      for (const s of state.apply(e)) say(s);
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
    if (e.kind === 'deal' || (e.player === me && (e.kind === 'withdraw' || e.kind === 'leave' || e.kind === 'release'))) asked.clear();
    const mineNow = e.player === me && ['bet', 'withdraw', 'leave', 'release', 'stake'].includes(e.kind);
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

  function say(s) {
    log.prepend(h('li', { class: 'call call-' + s.kind }, s.text));
    while (log.children.length > 60) log.lastChild.remove();
    if (s.kind !== 'info') announce(s.speech, s.kind === 'alert' || s.kind === 'me');
  }

  function onConn(st) {
    conn.textContent = { open: '● live', connecting: '○ connecting…', unauthorized: 'logged out' }[st] || st;
    conn.className = 'conn ' + st;
    if (st === 'unauthorized') toast('Your session is over: log in again.');
  }

  async function start() {
    if (loggedIn()) {
      sock = new TableSocket(id, onMessage, onConn);
      return;
    }
    // Watching without a session: the public snapshot, read again and again.
    onConn('watching');
    conn.textContent = 'watching';
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
  const tick = setInterval(() => { if (state.table) drawStatus(); }, 250);

  return () => {
    clearInterval(tick);
    clearInterval(poll);
    clearTimeout(walletTimer);
    if (sock) sock.close();
    document.removeEventListener('keydown', onKey);
    bus.removeEventListener('wallet', onWallet);
  };
}

function inWindow(phase) {
  return phase === 'insurance' || phase === 'challenge' || phase === 'follow' || phase === 'ace-choice';
}

function phaseName(p) {
  return { playing: 'Playing', insurance: 'Insurance', challenge: 'Challenge', follow: 'Back bettors', 'ace-choice': 'Ace choice' }[p] || p;
}

// plainMoney is an amount as typed in a field: 1234.5 units is "1234.50".
function plainMoney(minor) {
  return money(minor).replace(/,/g, '');
}

function isTyping() {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT' || a.isContentEditable);
}
