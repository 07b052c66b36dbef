// The live table's page: it lays out and wires the parts, each drawn from
// one TableState (state.js) — the felt (felt.js); whose turn it is, the
// timer and the dealer's calls (status.js); the decisions the rules allow
// this player now (prompt.js); the chips and bets (betting.js) — and feeds
// that state from the table's socket, or, watching without a session, from
// its snapshot read again and again. Commands go through run().

import { api, APIError, session, bus, refreshMe, noteRound, loggedIn, commandID } from './api.js';
import { h, replace, money } from './dom.js';
import { TableState, tableNeeds } from './state.js';
import { Prompt } from './prompt.js';
import { Betting } from './betting.js';
import { Status, Connection, Calls } from './status.js';
import { Felt } from './felt.js';
import { TableSocket, raced } from './socket.js';
import { Once, decisionPoint } from './once.js';
import { History } from './history.js';
import { RealityCheck } from './reality.js';
import { soundOn, motionOn, setSound, setMotion, cueOf, play } from './fx.js';
import { rulesPanel } from './rules.js';
import { toast, announce, navigate } from './ui.js';
import { t as tr, refusal } from './i18n.js';

const PACE_KEY = 'sabot.pace';

// pace is the pause after each card dealt, so that cards come one by one as
// from a shoe (?pace=MS sets it; 0 with reduced motion).
function dealPace() {
  const q = new URLSearchParams(location.search).get('pace');
  if (q !== null) sessionStorage.setItem(PACE_KEY, q);
  const v = sessionStorage.getItem(PACE_KEY);
  if (v !== null) return Number(v) || 0;
  return motionOn() ? 380 : 0; // none with reduced motion, or motion turned off (fx.js)
}

// fxToggles are the sound and motion switches (fx.js), remembered.
function fxToggles() {
  const toggle = (label, on, set) => {
    const b = h('button', { class: 'link fx', type: 'button', 'aria-pressed': String(on()) }, label);
    b.addEventListener('click', () => {
      set(!on());
      b.setAttribute('aria-pressed', String(on()));
    });
    return b;
  };
  return h('span', { class: 'fx-toggles' },
    toggle(tr('fx.sound'), soundOn, setSound), ' ', toggle(tr('fx.motion'), motionOn, setMotion));
}

export function tablePage(main, id) {
  const me = session.user?.name || '';
  const state = new TableState(id, me);
  const pace = dealPace();
  let sock = null;
  let poll = null;
  let rendered = 0;
  let frame = 0;
  const queue = [];
  const once = new Once(commandID);
  let pumping = false;
  let walletTimer = 0;

  const felt = new Felt({ onSpot: me ? box => betting.placeChip(box) : null, onSit: me ? box => run('sit', { box }) : null });
  const title = h('h1', { class: 'table-title' }, 'Table');
  const sub = h('p', { class: 'table-sub' });
  const conn = new Connection();
  const status = new Status(state, felt, announce);
  const prompt = new Prompt(state, run, status.clock('decide'));
  const betting = new Betting(state, id, run, status.clock('bets'), status.line());
  const calls = new Calls(announce);
  const history = new History(state, id, api, stakes => betting.remember(stakes));
  // The reality check (docs/players.md): leaving from it stands the player
  // up and goes back to the lobby.
  const reality = me ? new RealityCheck(async () => { await run('leave', {}); navigate('/'); }) : null;
  const rulesBox = h('div', { class: 'rules-slot' });
  // A lost connection: the table is dimmed under a notice, the
  // time left stands still, and a decision clicked meanwhile is not sent
  // (the notice says so): nothing goes twice when the table is back.
  const notice = h('div', { class: 'offline-notice', role: 'alert', hidden: true },
    h('strong', {}, tr('offline.title')), ' ', h('span', { class: 'offline-text' }, tr('offline.text')));
  // Where a lone player is dealt to at once, when this table waits for
  // more.
  const elsewhere = h('p', { class: 'elsewhere', hidden: true });
  // invited: the table the pit closed invites its players to another (003 §11).
  const invited = h('p', { class: 'elsewhere invited', hidden: true });

  const page = h('div', { class: 'table-page' },
      notice,
      h('div', { class: 'table-head' },
        h('div', {}, title, sub),
        h('div', { class: 'table-links' }, reality ? reality.el : null, fxToggles(), conn.el, h('a', { href: '#rules' }, tr('table.rulesLink')), h('a', { href: '/recall' }, tr('page.recall')), h('a', { href: '/' }, tr('page.lobby')))),
      felt.el,
      h('div', { class: 'console' },
        h('div', { class: 'console-main' }, status.el, invited, elsewhere, prompt.el, betting.el, history.el),
        h('aside', { class: 'console-side', 'aria-labelledby': 'calls-h' },
          h('h2', { id: 'calls-h' }, tr('table.calls')), calls.el)));
  replace(main, page, rulesBox);

  // Rules, the RTP and the strategy card; again when the pit changes the
  // table's configuration.
  function loadRules() {
    rulesPanel(rulesBox, id).then(values => {
      if (values) {
        felt.setValues(values);
        state.setValues(values);
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
    const needs = tableNeeds(r).map(([k, p]) => ' · ' + tr(k, p)).join('');
    sub.textContent = tr('table.sub', { profile: t.profile, min: money(r.min_bet), max: money(r.max_bet), boxes: r.boxes }) + (r.back_bets_per_box ? tr('table.subBack', { n: r.back_bets_per_box }) : '') + (t.test_mode ? tr('table.subTest') : '') + needs;
    felt.update(state);
    status.draw();
    prompt.draw();
    betting.draw();
    history.draw();
    drawElsewhere();
    drawInvited();
    keepInSight();
  }

  // drawInvited links the table the players of this one, closed by the
  // pit, are invited to (003 §11).
  function drawInvited() {
    const to = state.table.pit_closed ? state.table.invited_to || 0 : 0;
    invited.hidden = !to;
    if (String(to) === invited.dataset.to) return;
    invited.dataset.to = String(to);
    if (to) replace(invited, tr('table.invited'), ' ', h('a', { href: `/tables/${to}` }, tr('table.invitedLink', { table: to })), '.');
  }

  // drawElsewhere names the open tables that deal to one player, while
  // this one waits for more players (AR-03, VE-20).
  let others = null;
  function drawElsewhere() {
    const waiting = !!state.waiting && !state.inPlay() && tableNeeds(state.table.rules).length > 0;
    if (waiting && others === null) {
      others = [];
      api('/api/tables').then(ts => {
        others = ts.filter(x => x.id !== id && !x.closed && !tableNeeds(x.rules).length);
        render();
      }, () => {});
    }
    const show = waiting && others?.length > 0;
    elsewhere.hidden = !show;
    if (!show) return;
    const sig = others.map(x => x.id + x.name).join('|');
    if (elsewhere.dataset.sig === sig) return;
    elsewhere.dataset.sig = sig;
    const links = others.map(x => h('a', { href: `/tables/${x.id}` }, x.name));
    replace(elsewhere, tr('table.elsewhere'), ' ', links.flatMap((a, i) => (i ? [', ', a] : [a])), '.');
  }

  // The decision is a bar held at the foot of the window, on a phone as on
  // a desktop: the hand it asks about is scrolled into
  // sight above it, once per decision (a player who scrolls away is left
  // there), and the page is padded by the bar's height so that the last
  // box can come above it. So is the chip tray while betting on a phone.
  // The felt is fitted to the window's height between its own top
  // (--felt-top) and the tallest bar held at the foot (--bar-room: the chip
  // tray, the decision bar with a stake's field), so that no box is behind
  // a bar on a laptop; the room only grows, so that the felt
  // does not change its size from one decision to the next.
  let sighted = '';
  let barRoom = 0;
  function fitFelt(h) {
    const felt = page.querySelector('.felt');
    if (!felt) return;
    const top = Math.ceil(felt.getBoundingClientRect().top + window.scrollY);
    page.style.setProperty('--felt-top', `${top}px`);
    if (h > barRoom) {
      barRoom = h;
      page.style.setProperty('--bar-room', `${barRoom + 12}px`);
    }
  }
  function keepInSight() {
    const tray = betting.el.querySelector('.bet-tray');
    const trayFixed = tray && betting.el.classList.contains('open') && getComputedStyle(tray).position === 'fixed';
    const trayH = trayFixed ? Math.ceil(tray.getBoundingClientRect().height) : 0;
    page.style.setProperty('--tray-h', `${trayH}px`);
    if (prompt.el.hidden || getComputedStyle(prompt.el).position !== 'fixed') {
      fitFelt(trayH);
      sighted = '';
      return;
    }
    const sheet = prompt.el.getBoundingClientRect();
    page.style.setProperty('--sheet-h', `${Math.ceil(sheet.height)}px`);
    fitFelt(Math.max(trayH, Math.ceil(sheet.height)));
    const point = decisionPoint(state);
    const el = page.querySelector('.box.turn .hand.current') || page.querySelector('.box.turn');
    if (!el || point === sighted) return;
    sighted = point;
    const r = el.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= sheet.top) return;
    window.scrollBy(0, (r.top + r.bottom) / 2 - sheet.top / 2);
  }

  // ---- commands ----

  // run sends a command and resolves whether it was taken. The decisions
  // (prompt.js) and the chips (betting.js) say themselves what is one
  // command; a seat, a withdrawal or leaving asked for again while on its
  // way is sent once (once.js).
  async function run(op, fields) {
    if (!sock) return false;
    if (offline) {
      notSent();
      return false;
    }
    if (op === 'act' || op === 'decline' || op === 'bet' || fields.command_id) return send(op, fields);
    return (await once.send(`${op}-${fields.box || 0}`, id => send(op, { ...fields, command_id: id }), false)) ?? false;
  }

  async function send(op, fields) {
    try {
      await sock.command(op, fields);
      return true;
    } catch (e) {
      // A race with the table (socket.js raced) is no refusal to show:
      // the events, or the socket's resync, show the table as it stands.
      if (!e.raced) toast(refusal(e)); // worded by its reason where the page knows it
      return false;
    }
  }

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
      history.settled(state.round);
      refreshWallet();
      render();
      return;
    }
    if (m.type === 'error') {
      if (!raced(m)) toast(refusal(m));
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
      play(cueOf(e, me));
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
      noteRound({ id: r.id, no: r.no, table: id, name: state.table.name, profile: state.table.profile, at: Date.now(), net: r.net[me], test: r.test, void: !!r.void, dealer: r.dealer.cards.length ? r.dealer.dealerTotal() : '' });
    }
  }

  function after(e) {
    betting.seen(e);
    history.seen(e);
    const mineNow = e.player === me && ['bet', 'withdraw', 'leave', 'release', 'stake'].includes(e.kind);
    if (e.kind === 'configure') {
      loadRules();
      refreshWallet(); // bets the new rules refuse come back
    }
    if (e.kind === 'deal' || e.kind === 'settle' || (e.kind === 'stake' && e.player === me) || (e.kind === 'turn' && e.turn?.players.includes(me))) refreshRoom();
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

  let live = false; // the table was heard at least once
  let offline = false;
  let asked = false; // whether the table exists was asked, once
  function onConn(st) {
    conn.show(st);
    if (st === 'connecting' && !live && !asked) {
      // A table that does not exist is said so, not "connecting…" for ever.
      asked = true;
      api(`/api/tables/${id}`).catch(e => {
        if (!(e instanceof APIError) || e.status !== 404) return;
        sock?.close();
        sock = null;
        replace(main, h('h1', {}, tr('table.missing')), h('p', { class: 'form-error', role: 'alert' }, refusal(e)), h('p', {}, h('a', { href: '/' }, tr('page.lobby'))));
      });
    }
    if (st === 'unauthorized') toast(tr('page.sessionOver'));
    if (st === 'open') live = true;
    setOffline(live && st === 'connecting'); // logged out: the toast says so
  }

  function setOffline(on) {
    if (on === offline) return;
    offline = on;
    page.classList.toggle('offline', on);
    notice.hidden = !on;
    notice.querySelector('.offline-text').textContent = tr('offline.text');
    status.frozen = on ? Date.now() : 0;
    if (!on) refreshRoom();
    render();
  }

  // notSent says that a click while the table cannot be heard went nowhere.
  function notSent() {
    notice.querySelector('.offline-text').textContent = tr('offline.notSent');
    notice.classList.remove('flash');
    void notice.offsetWidth; // the flash again on each click
    notice.classList.add('flash');
    announce(tr('offline.notSent'), true);
  }

  // refreshRoom reads the most this player may stake now under his limits
  // (GET /api/me/care, stake_room): a double or a split they refuse is not
  // offered. An operator's player has none here.
  let roomTimer = 0;
  function refreshRoom() {
    if (!me || session.user?.operator) return; // an operator's limits are his operator's
    clearTimeout(roomTimer);
    roomTimer = setTimeout(async () => {
      try {
        const v = await api('/api/me/care');
        prompt.room = v.stake_room ?? undefined;
      } catch {
        prompt.room = undefined;
      }
      render();
    }, 60);
  }

  async function start() {
    if (loggedIn()) {
      sock = new TableSocket(id, onMessage, onConn);
      history.load();
      refreshRoom();
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
        if (e instanceof APIError && e.status === 404) {
          clearInterval(poll);
          replace(main, h('h1', {}, tr('table.missing')), h('p', { class: 'form-error', role: 'alert' }, refusal(e)), h('p', {}, h('a', { href: '/' }, tr('page.lobby'))));
          return;
        }
        toast(refusal(e));
      }
    };
    await load();
    poll = setInterval(load, 2000);
  }
  start();

  const onWallet = () => { betting.invalidate(); render(); };
  bus.addEventListener('wallet', onWallet);
  // The status and the decisions are drawn together, also here: a tab the
  // browser draws no frames for (in the background) never shows a turn that
  // has passed with its buttons still offered.
  const tick = setInterval(() => {
    if (state.table) {
      status.draw();
      prompt.draw();
    }
    reality?.tick();
  }, 250);

  return () => {
    clearInterval(tick);
    reality?.stop();
    clearInterval(poll);
    clearTimeout(walletTimer);
    clearTimeout(roomTimer);
    if (sock) sock.close();
    document.removeEventListener('keydown', prompt.onKey);
    bus.removeEventListener('wallet', onWallet);
  };
}

