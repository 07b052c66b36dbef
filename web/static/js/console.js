// The dealer's console (docs/live.md): the page a dealer works a
// table dealt from a physical shoe from, on a tablet beside the shoe. It
// shows the bets on each box, whose the next card is (the server says it:
// a box's hand, the dealer's up card or hole card, face down or not), and
// takes each card read — typed (a rank and a suit: "AS", "td"), from a
// reader that types like a keyboard into the card field, or with the
// on-screen buttons. It calls "no more bets" (AR-22, VE-04), takes back the
// last card before anyone acted on it, notes the cut card (EG-04), and asks
// for the inspector's corrections (AR-23); the inspector (or the pit)
// approves or refuses them on the same page. A new shoe, where the profile
// asks it (player_cut; AR-07, EG-02), waits for the inspector's
// authorisation of its shuffle (authorise-shuffle, his own) and for the
// dealer's record of who cut it (record-cut: the box of the player who
// cut, or the inspector's own cut) before its first deal. Everything is a command of
// the HTTP API; the table's feed (the WebSocket) says when to read the
// table again.

import { api, session, clientID, commandID, loggedIn } from './api.js';
import { h, replace, money, cardShort, parseMoney, plainMoney } from './dom.js';
import { TableSocket } from './socket.js';
import { toast, announce, clearToast } from './ui.js';
import { t, getLang, sentence } from './i18n.js';
import { readCode, needText, SUIT_SIGNS } from './reader.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];

// staff reports whether the logged-in user works the tables: a dealer, an
// inspector, or the pit.
function staff() {
  const u = session.user;
  return !!u && (u.admin || u.role === 'dealer' || u.role === 'inspector');
}

function inspector() {
  const u = session.user;
  return !!u && (u.admin || u.role === 'inspector');
}

// holderName names a box's player as the dealer knows him: a walk-in by
// his box ("Walk-in, box 2", not its account "#8-5"), anyone else by name.
export function holderName(player, box) {
  return player && player.startsWith('#') ? t('console.walkInAt', { box }) : player;
}

export function consolePage(main, id) {
  if (!loggedIn() || !staff()) {
    replace(main, h('h1', {}, t('console.title')), h('p', { class: 'empty' }, t('console.staffOnly')));
    return () => {};
  }
  let view = null;
  let chips = new Map(); // box → a walk-in's chips (GET /api/tables/{id}/walk-ins)
  let sock = null;
  let timer = 0;
  let rank = '';
  const heading = h('h1', { id: 'console-h' }, t('console.title'));
  const shoe = h('p', { class: 'console-shoe' });
  const next = h('p', { class: 'console-need', id: 'console-need', role: 'status', 'aria-live': 'polite' });
  const input = h('input', {
    id: 'card-input', class: 'card-input', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    'aria-label': t('console.cardField'), placeholder: 'AS',
  });
  // A card typed wrong is flagged as typed, at the field.
  const cardError = h('p', { class: 'card-error form-error', id: 'card-error', role: 'alert' });
  input.setAttribute('aria-describedby', 'card-error');
  const cardForm = h('form', { class: 'console-card', id: 'card-form' }, input, h('button', { type: 'submit', class: 'button' }, t('console.read')), cardError);
  function flagCard(text) {
    input.setAttribute('aria-invalid', text ? 'true' : 'false');
    cardError.textContent = text ? t('console.notACard', { text }) : '';
  }
  const rankRow = h('div', { class: 'console-keys', role: 'group', 'aria-label': t('console.ranks') });
  const suitRow = h('div', { class: 'console-keys', role: 'group', 'aria-label': t('console.suits') });
  const actions = h('div', { class: 'console-actions', role: 'group', 'aria-label': t('console.actions') });
  const boxes = h('div', { class: 'console-boxes' });
  const corrections = h('section', { class: 'console-corrections', 'aria-labelledby': 'corr-h' });
  const status = h('p', { class: 'pit-status', role: 'status' });
  const steps = h('section', { class: 'console-steps', id: 'console-steps', 'aria-labelledby': 'steps-h' });

  async function command(op, body = {}) {
    try {
      await api(`/api/tables/${id}/${op}`, { method: 'POST', body: { command_id: commandID(), client_id: clientID, ...body } });
      await load();
      return true;
    } catch (e) {
      toast(e.message);
      announce(e.message);
      return false;
    }
  }

  // send reads a card in. The field is cleared at once and the cards go
  // to the server one after another, in the order typed: a reader that
  // types the next card before the last is answered loses none.
  let queue = Promise.resolve();
  function send(code) {
    input.value = '';
    rank = '';
    drawKeys();
    input.focus();
    queue = queue.then(async () => {
      if (await command('card', { card: code })) {
        clearToast(); // the last refusal is put right
        replace(status, t('console.cardRead', { card: cardShort(code) }));
      }
    });
  }

  cardForm.addEventListener('submit', ev => {
    ev.preventDefault();
    if (!input.value.trim()) return; // a reader's Enter after a card already read
    const code = readCode(input.value);
    if (!code) {
      toast(t('console.notACard', { text: input.value }));
      flagCard(input.value);
      input.select();
      return;
    }
    send(code);
  });
  // A reader that types like a keyboard ends a card with Enter; a dealer's
  // two keys are enough.
  input.addEventListener('input', () => {
    if (input.getAttribute('aria-invalid') === 'true') flagCard('');
    const code = readCode(input.value);
    if (code && input.value.trim().length >= 2 && !/^1$/.test(input.value.trim())) send(code);
  });

  function drawKeys() {
    replace(rankRow, RANKS.map(r => h('button', {
      type: 'button', class: 'button small' + (rank === r ? ' chosen' : ' secondary'), 'aria-pressed': String(rank === r), dataset: { rank: r },
      onclick: () => { rank = r; drawKeys(); },
    }, r === 'T' ? '10' : r)));
    replace(suitRow, SUITS.map(s => h('button', {
      type: 'button', class: 'button small secondary', disabled: !rank, dataset: { suit: s }, 'aria-label': t('console.suit.' + s),
      onclick: () => send(rank + s),
    }, SUIT_SIGNS[s])));
  }

  function drawActions() {
    const round = view?.round;
    const inPlay = round && round.phase !== 'done';
    const b = (op, label, enabled, body) => h('button', {
      type: 'button', class: 'button secondary', dataset: { op }, disabled: !enabled,
      onclick: () => command(op, body).then(ok => ok && replace(status, label + '.')),
    }, label);
    replace(actions,
      b('no-more-bets', t('console.noMoreBets'), !inPlay && (view?.bets || []).length > 0),
      b('undo-card', t('console.undo'), inPlay),
      b('cut-card', t('console.cutCard'), inPlay && !view?.shoe?.cut_card),
      // AR-23 (d)'s exception and item 9, the dealer's own calls (no
      // approval): the card drawn to a first-card Ace or an 11 before the
      // challenge or the double was offered stands; the player on 11 given
      // no card may withdraw or take the next. The server refuses either,
      // with the reason, where it does not apply.
      b('card-stands', t('console.cardStands'), inPlay && !view?.need),
      b('skipped-eleven', t('console.skippedEleven'), inPlay && !view?.need));
  }

  // A walk-in's controls: chips sold for cash,
  // his bet, his decisions when his turn comes, and his chips changed back.
  // Each is the player's own command, sent with walk_in: the box.
  const amounts = new Map(); // box → the amount field, kept across redraws
  function amountField(box) {
    if (!amounts.has(box)) {
      amounts.set(box, h('input', { class: 'walkin-amount', inputmode: 'decimal', size: 7, dataset: { box }, 'aria-label': t('console.amountFor', { box }), placeholder: plainMoney(view?.rules?.min_bet || 100) }));
    }
    return amounts.get(box);
  }
  function walkInControls(box, holder, inPlay) {
    if (!holder) {
      return inPlay ? null : h('button', { type: 'button', class: 'button small secondary', dataset: { op: 'seat-walk-in', box }, onclick: () => command('seat-walk-in', { box }) }, t('console.seatWalkIn'));
    }
    if (!holder.startsWith('#')) return null;
    const amount = amountField(box);
    const minor = () => {
      const v = parseMoney(amount.value);
      if (!(v > 0)) toast(t('console.amountInvalid'));
      return v > 0 ? v : 0;
    };
    const out = [];
    if (!inPlay) {
      out.push(amount,
        h('button', { type: 'button', class: 'button small secondary', dataset: { op: 'buy-in', box }, onclick: () => { const v = minor(); if (v) command('buy-in', { box, stake: v }).then(ok => { if (ok) amount.value = ''; }); } }, t('console.buyIn')),
        h('button', { type: 'button', class: 'button small', dataset: { op: 'bet', box }, onclick: () => { const v = minor(); if (v) command('bet', { box, stake: v, walk_in: box }).then(ok => { if (ok) amount.value = ''; }); } }, t('console.betFor')),
        h('button', { type: 'button', class: 'button small secondary', dataset: { op: 'cash-out', box }, onclick: async () => { if (await command('cash-out', { box })) command('leave', { walk_in: box }); } }, t('console.cashOut')));
    }
    const turn = view?.turn;
    if (inPlay && turn && (turn.players || []).includes(holder)) {
      for (const l of (turn.legal || []).filter(x => x.player === holder && x.box === box)) {
        out.push(h('button', {
          type: 'button', class: 'button small', dataset: { op: 'act', box, action: l.action },
          onclick: () => command('act', { action: l.action, box, hand: l.hand, stake: l.stake || undefined, value: l.value || undefined, walk_in: box }),
        }, l.action === 'declare' ? t('console.declare', { value: l.value }) : t('action.' + l.action)));
      }
      if (turn.phase !== 'playing') {
        out.push(h('button', { type: 'button', class: 'button small secondary', dataset: { op: 'decline', box }, onclick: () => command('decline', { box, walk_in: box }) }, t('prompt.noThanks')));
      }
    }
    return h('div', { class: 'walkin' }, out);
  }

  let boxesSig = '';
  function drawBoxes() {
    const round = view?.round;
    const inPlay = round && round.phase !== 'done';
    // Drawn again only when what it shows changed: a field being typed in
    // keeps its focus while other players bet.
    const sig = JSON.stringify([view.seats, view.bets, round, view.turn, [...chips], getLang()]);
    if (sig === boxesSig) return;
    boxesSig = sig;
    const rows = [];
    const n = view?.rules?.boxes || 0;
    for (let box = 1; box <= n; box++) {
      const holder = (view.seats || []).find(s => s.box === box)?.player || '';
      const bets = inPlay ? (round.bets || []).filter(x => x.box === box && x.kind === 'main') : (view.bets || []).filter(x => x.box === box);
      const hands = round ? (round.hands || []).filter(x => x.box === box) : []; // the last round's, until the next
      rows.push(h('tr', { dataset: { box } },
        h('th', { scope: 'row' }, t('console.box', { box })),
        h('td', { class: 'console-holder' }, holderName(holder, box),
          chips.has(box) ? [h('br'), h('small', { class: 'walkin-chips' }, t('console.chips', { amount: money(chips.get(box)) }))] : null),
        h('td', {}, bets.map(x => `${holderName(x.player, x.box)} ${money(x.stake)}`).join(', ')),
        h('td', { class: 'console-cards' }, hands.map(x => `${(x.cards || []).map(cardShort).join(' ')}${x.total ? ` (${x.total})` : ''}${x.result ? ` ${t('outcome.' + x.result)}` : ''}`).join(' · ')),
        h('td', {}, walkInControls(box, holder, inPlay))));
    }
    const dealer = round ? (round.dealer?.cards || []).map(cardShort).join(' ') : '';
    replace(boxes, h('table', { class: 'rounds console-table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('console.boxCol')), h('th', {}, t('console.holder')), h('th', {}, t('console.bets')), h('th', {}, t('console.cards')), h('th', {}, t('console.walkIn')))),
      h('tbody', {}, rows, h('tr', { dataset: { box: 0 } }, h('th', { scope: 'row' }, t('console.dealer')), h('td', {}), h('td', {}), h('td', { class: 'console-cards' }, dealer), h('td', {})))));
  }

  // The corrections: the dealer asks; the inspector decides.
  const caseSel = h('select', { id: 'corr-case', 'aria-label': t('console.case') },
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'j', 'undo'].map(c => h('option', { value: c }, t('console.case.' + c))));
  const corrBox = h('input', { id: 'corr-box', inputmode: 'numeric', size: 3, 'aria-label': t('console.corrBox'), placeholder: t('console.corrBox') });
  const corrCard = h('input', { id: 'corr-card', size: 4, 'aria-label': t('console.corrCard'), placeholder: 'AS' });
  const ask = h('form', { class: 'console-ask', id: 'corr-form' }, caseSel, corrBox, corrCard, h('button', { type: 'submit', class: 'button secondary' }, t('console.ask')));
  ask.addEventListener('submit', async ev => {
    ev.preventDefault();
    const body = { case: caseSel.value };
    if (corrBox.value.trim()) body.box = Number(corrBox.value);
    if (corrCard.value.trim()) body.card = readCode(corrCard.value) || corrCard.value.trim();
    if (await command('correct', body)) {
      corrBox.value = corrCard.value = '';
      replace(status, t('console.asked'));
    }
  });

  let corrSig = '';
  // The inspector's ruling on a dispute ("la decisión del Jefe de Mesa es
  // irrevocable"): written in the table's log with his name.
  const rulingText = h('input', { id: 'ruling-text', size: 40, maxlength: 500, 'aria-label': t('console.ruling'), placeholder: t('console.rulingHint') });
  const ruling = h('form', { class: 'console-ask', id: 'ruling-form' }, rulingText, h('button', { type: 'submit', class: 'button secondary' }, t('console.ruling')));
  ruling.addEventListener('submit', async ev => {
    ev.preventDefault();
    if (!rulingText.value.trim()) return;
    if (await command('ruling', { reason: rulingText.value.trim() })) {
      rulingText.value = '';
      replace(status, t('console.ruled'));
    }
  });

  function drawCorrections() {
    const waiting = view?.corrections || [];
    const sig = JSON.stringify([waiting, getLang()]);
    if (sig === corrSig) return; // the request being typed keeps its focus
    corrSig = sig;
    replace(corrections,
      h('h2', { id: 'corr-h' }, t('console.corrections')),
      waiting.length ? h('ul', { class: 'console-waiting' }, waiting.map(x => h('li', { dataset: { correction: x.id } },
        h('span', {}, x.amount
          // A walk-in's buy-in or cash-out over the table's cash_approval.
          ? t(x.case === 'cash-out' ? 'console.waitingCashOut' : 'console.waitingBuyIn', { amount: money(x.amount), box: t('console.box', { box: x.box }).toLowerCase(), asked: x.asked_by })
          : t('console.waiting', { case: x.case, box: x.box ? t('console.box', { box: x.box }).toLowerCase() : '', asked: x.asked_by }), ' ', h('small', {}, x.text)),
        inspector() && x.asked_by !== session.user?.name ? h('span', { class: 'console-decide' },
          h('button', { type: 'button', class: 'button small', dataset: { op: 'approve' }, onclick: () => command('approve', { correction: x.id }) }, t('console.approve')),
          h('button', { type: 'button', class: 'button small secondary', dataset: { op: 'refuse-correction' }, onclick: () => command('refuse-correction', { correction: x.id }) }, t('console.refuse'))) : null)))
        : h('p', { class: 'hint' }, t('console.noneWaiting')),
      ask,
      inspector() ? ruling : null);
  }

  // A new shoe's steps (AR-07, EG-02): the inspector authorises the
  // shuffle; the dealer records who cut. Drawn again only when they
  // change: the box chosen keeps its choice while the bets come in.
  const cutWho = h('select', { id: 'cut-who', 'aria-label': t('console.cutWho') });
  let stepsSig = '';
  function drawSteps() {
    const s = view?.shoe || {};
    const seats = (view?.seats || []).filter(x => x.box > 0);
    const sig = JSON.stringify([s.await, s.authorised_by, s.cut_by, seats, inspector(), getLang()]);
    if (sig === stepsSig) return;
    stepsSig = sig;
    if (!s.await && !s.authorised_by && !s.cut_by) {
      replace(steps);
      return;
    }
    const out = [h('h2', { id: 'steps-h' }, t('console.steps'))];
    if (s.await === 'authorise') {
      out.push(h('p', { class: 'console-await' }, t('console.awaitAuthorise')));
      if (inspector()) {
        out.push(h('button', { type: 'button', class: 'button', dataset: { op: 'authorise-shuffle' },
          onclick: () => command('authorise-shuffle').then(ok => ok && replace(status, t('console.authorise') + '.')) }, t('console.authorise')));
      }
    } else if (s.await === 'cut') {
      const chosen = cutWho.value;
      replace(cutWho,
        seats.map(x => h('option', { value: String(x.box) }, `${t('console.box', { box: x.box })}: ${holderName(x.player, x.box)}`)),
        inspector() ? h('option', { value: '0' }, t('console.ownCut')) : null);
      if (chosen && [...cutWho.options].some(o => o.value === chosen)) cutWho.value = chosen;
      out.push(h('p', { class: 'console-await' }, t('console.awaitCut', { by: s.authorised_by || '' })),
        h('form', { class: 'console-ask', id: 'cut-form', onsubmit: ev => {
          ev.preventDefault();
          if (cutWho.value === '') return;
          command('record-cut', { box: Number(cutWho.value) }).then(ok => ok && replace(status, t('console.recordCut') + '.'));
        } }, h('label', { for: 'cut-who' }, t('console.cutWho')), ' ', cutWho, ' ', h('button', { type: 'submit', class: 'button' }, t('console.recordCut'))));
    } else {
      out.push(h('p', { class: 'hint' }, t('console.stepsDone', { by: s.authorised_by || '', cut: holderName(s.cut_by || '', (seats.find(x => x.player === s.cut_by) || {}).box) })));
    }
    replace(steps, out);
  }

  function draw() {
    if (!view) return;
    replace(heading, t('console.titleOf', { name: view.name }));
    if (!view.shoe?.physical) {
      replace(next, t('console.notPhysical'));
      return;
    }
    replace(shoe, t('console.shoe', { id: view.shoe.id, n: view.shoe.read || 0 }), view.shoe.cut_card ? ` · ${t('console.cutOut')}` : '');
    const round = view.round;
    const inPlay = round && round.phase !== 'done';
    let text;
    if (view.need) text = t('console.next', { who: needText(view.need) });
    else if (inPlay && view.turn) text = t('console.decision', { box: view.turn.box });
    else if (inPlay) text = t('console.window');
    else text = t('console.betting', { n: (view.bets || []).length });
    replace(next, text);
    const wasDisabled = input.disabled;
    input.disabled = !view.need;
    // Bets closed, the first card is due: the card field takes the focus
    // where it is not in another field.
    if (wasDisabled && !input.disabled && !(document.activeElement && document.activeElement !== input && ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName))) input.focus();
    drawActions();
    drawSteps();
    drawBoxes();
    drawCorrections();
  }

  async function load() {
    try {
      view = await api(`/api/tables/${id}`);
      // Each walk-in's chips, by his box.
      chips = new Map((view.seats || []).some(s => s.player.startsWith('#'))
        ? (await api(`/api/tables/${id}/walk-ins`)).map(x => [x.box, x.chips]) : []);
      draw();
    } catch (e) {
      toast(e.message);
    }
  }

  // The shoe's procedure as this table's profile has it: decks, burns,
  // the cut card (the rules' shoe line, in the page's language).
  const procedure = h('p', { class: 'hint console-procedure' }, t('console.procedure'));
  api(`/api/tables/${id}/rules`).then(r => {
    const line = (r.lines || []).find(l => l.key === 'shoe');
    if (line) replace(procedure, t('console.procedure'), ' ', h('strong', {}, sentence('rule.', line.phrases, line.text)));
  }, () => {});
  replace(main, h('section', { class: 'console', 'aria-labelledby': 'console-h' },
    heading, shoe, next, steps, cardForm, rankRow, suitRow, actions, status, boxes, corrections,
    procedure, h('p', {}, h('a', { href: `/tables/${id}` }, t('console.tableView')))));
  drawKeys();
  load().then(() => input.focus());
  sock = new TableSocket(id, () => {
    clearTimeout(timer);
    timer = setTimeout(load, 60);
  });
  return () => {
    clearTimeout(timer);
    if (sock) sock.close();
  };
}
