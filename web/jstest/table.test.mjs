// The live table's pure parts, run by node (no browser): the state a feed
// of events makes (state.js) and what the status, the prompt and the
// betting make of it. Run: node --test web/jstest/
// The browser tests (internal/webtest) play the same page in Chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { money, plainMoney, parseMoney, chipSet, chipLabel, chipStack, netClass, optionText } from '../static/js/dom.js';
import { TableState, inWindow } from '../static/js/state.js';
import { statusLine, deadline } from '../static/js/status.js';
import { promptGroups, promptButtons, promptText, promptHeading, checkStake, stepStake, actFields } from '../static/js/prompt.js';
import { setLang } from '../static/js/i18n.js';
import { pickChip, chipAfterKey, nextStake, forgetsAsked } from '../static/js/betting.js';

const RULES = { boxes: 7, back_bets_per_box: 2, min_bet: 100, max_bet: 100000, decision_ms: 15000, window_ms: 8000, bet_window_ms: 20000 };

// table is ana's view of a venice table with her seated at box 3.
function table() {
  const s = new TableState(2, 'ana');
  s.snapshot('e1', 10, { id: 2, name: 'Venezia', profile: 'venice', rules: RULES, seats: [{ box: 3, player: 'ana' }], bets: [], shoe: { id: 's1', remaining: 300 } });
  return s;
}

// says applies events and returns the dealer's calls they make.
function says(s, ...events) {
  return events.flatMap(e => s.apply(e)).map(x => x.text);
}

test('money: shown, as typed, read back', () => {
  assert.equal(money(123456), '1,234.56');
  assert.equal(money(-250), '−2.50');
  assert.equal(plainMoney(123456), '1234.56');
  assert.equal(parseMoney('1,234.5'), 123450);
  assert.ok(Number.isNaN(parseMoney('1.234')));
  assert.equal(netClass(5), 'up');
  assert.equal(netClass(0, 'even'), 'even');
  // An option in minor units is shown as money.
  assert.equal(optionText('max_bet', '50000'), 'max_bet=500.00');
  assert.equal(optionText('decks', '6'), 'decks=6');
});

test('chips: the set a table calls for, their labels, a stake as a stack', () => {
  assert.deepEqual(chipSet(100, 100000), [100, 500, 2500, 10000, 50000, 100000]);
  assert.deepEqual(chipSet(250, 1000), [250, 500]);
  assert.equal(chipLabel(100000), '1k');
  assert.equal(chipLabel(250), '2.50');
  assert.deepEqual(chipStack(2650), [2500, 100, 50]);
  assert.deepEqual(chipStack(1750), [500, 500, 500, 100, 100]); // five at most
});

test('state: a round from the bet to the settlement, with the dealer calls', () => {
  const s = table();
  assert.deepEqual(says(s, { kind: 'bet', player: 'ana', box: 3, amount: 500 }, { kind: 'betting', deadline: 5000 }),
    ['ana bets 5.00 on box 3.', 'Place your bets.']);
  assert.equal(s.bettingDeadline, 5000);
  assert.deepEqual(says(s,
    { kind: 'deal', round: 1 },
    { kind: 'stake', player: 'ana', box: 3, hand: 1, bet: 'main', amount: 500 },
    { kind: 'card', box: 3, hand: 1, card: 'TS' },
    { kind: 'card', card: '6D' },
    { kind: 'card', box: 3, hand: 1, card: '9C' },
    { kind: 'card', card: '', face_down: true }),
  ['No more bets. Round 1.', 'Box 3: 10♠.', 'The dealer shows 6♦.', 'Box 3: 9♣, 19.', "The dealer's second card, face down."]);
  assert.ok(s.inPlay());
  assert.equal(s.table.shoe.remaining, 296); // four cards out, the face-down one too
  assert.equal(s.round.hand(3, 1).playerTotal(), '19');

  const turn = { round: 1, phase: 'playing', box: 3, hand: 1, players: ['ana'], deadline: 9000, default: 'stand',
    legal: [{ action: 'hit', player: 'ana', box: 3, hand: 1 }, { action: 'stand', player: 'ana', box: 3, hand: 1 }] };
  assert.deepEqual(says(s, { kind: 'turn', turn }), ['Your turn: Box 3.']);
  assert.equal(s.myLegal().length, 2);
  assert.equal(s.boxTurn().box, 3);
  assert.deepEqual(says(s, { kind: 'action', action: { action: 'stand', player: 'ana', box: 3, hand: 1 } }), ['Box 3 stands on 19.']);
  assert.equal(s.turn, null);
  assert.deepEqual(says(s,
    { kind: 'reveal', card: 'TC' },
    { kind: 'card', card: '9S' },
    { kind: 'result', player: 'ana', box: 3, hand: 1, bet: 'main', result: 'win', amount: 500 },
    { kind: 'done' },
    { kind: 'settle', round: 1, net: { ana: 500 } }),
  ['The dealer turns 10♣: 16.', 'Dealer draws 9♠: 25 bust.', 'The dealer busts with 25.', 'You win 5.00.']);
  assert.ok(!s.inPlay());
  assert.equal(s.round.hand(3, 1).result, 'win');
});

// AR-13: under dealer_ace=stays-one the dealer's Ace counted 1 when he
// draws stays 1 (A-5, then a 2, is 8); recounted, A-5-2 is 18.
test('state: the dealer\'s total by dealer_ace (AR-13)', () => {
  for (const [reading, calls, final] of [
    ['stays-one', ['The dealer turns 5♣: 6.', 'Dealer draws 2♥: 8.', 'Dealer draws 9♦: 17.'], '17'],
    ['recount', ['The dealer turns 5♣: 6.', 'Dealer draws 2♥: 18.', 'Dealer draws 9♦: 17.'], '17'],
  ]) {
    const s = table();
    s.setValues({ dealer_ace: reading });
    says(s, { kind: 'deal', round: 1 },
      { kind: 'card', box: 3, hand: 1, card: 'TS' },
      { kind: 'card', card: 'AD' },
      { kind: 'card', box: 3, hand: 1, card: '9C' },
      { kind: 'card', card: '', face_down: true });
    assert.deepEqual(says(s, { kind: 'reveal', card: '5C' }, { kind: 'card', card: '2H' }, { kind: 'card', card: '9D' }), calls, reading);
    assert.equal(s.round.dealer.dealerTotal(), final, reading);
  }
  // The values may come after the round's first cards: the total follows.
  const s = table();
  says(s, { kind: 'deal', round: 1 }, { kind: 'card', card: 'AD' }, { kind: 'card', card: '5C' }, { kind: 'card', card: '2H' });
  assert.equal(s.round.dealer.dealerTotal(), '18');
  s.setValues({ dealer_ace: 'stays-one' });
  assert.equal(s.round.dealer.dealerTotal(), '8');
});

test('state: the windows and the turn shown on a box', () => {
  assert.ok(inWindow('insurance') && inWindow('follow') && inWindow('ace-choice') && !inWindow('playing'));
  const s = table();
  s.apply({ kind: 'deal', round: 1 });
  s.apply({ kind: 'turn', turn: { phase: 'insurance', box: 0, players: ['ana'], legal: [] } });
  assert.equal(s.boxTurn(), null, 'insurance is every box\'s at once');
});

test('status: betting, a decision, waiting for another, out of service', () => {
  const s = table();
  assert.equal(statusLine(s, 0).text, 'Place your bets: choose a chip, then your spot.');
  assert.equal(statusLine(s, 0).frac, null);
  s.apply({ kind: 'betting', deadline: 20000 });
  let st = statusLine(s, 5000);
  assert.equal(st.text, 'Place your bets — no more bets in 15 s.');
  assert.equal(st.frac, 0.75);
  assert.equal(st.boxFrac, null, 'no box has a timer while betting');

  s.apply({ kind: 'deal', round: 1 });
  assert.equal(statusLine(s, 0).text, 'Dealing…');
  s.apply({ kind: 'turn', turn: { phase: 'playing', box: 3, hand: 1, players: ['ana'], deadline: 15000, default: 'stand', legal: [] } });
  assert.deepEqual(deadline(s), { at: 15000, total: 15000 });
  st = statusLine(s, 3000);
  assert.equal(st.text, 'Your decision on Box 3 — 12 s. If time runs out: stand.');
  assert.equal(st.box, 3);
  assert.equal(st.boxFrac, 0.8);

  s.apply({ kind: 'turn', turn: { phase: 'insurance', players: ['bob'], deadline: 8000, legal: [] } });
  st = statusLine(s, 0);
  assert.equal(st.text, 'Insurance: waiting for bob — 8 s');
  assert.equal(st.frac, 1, 'a window has its own time (window_ms)');
  assert.equal(st.box, 0);

  s.table.closed = 'the pit closed it';
  assert.equal(statusLine(s, 0).text, 'This table is out of service: the pit closed it');

  const watcher = new TableState(2, '');
  watcher.snapshot('', undefined, { id: 2, rules: RULES, seats: [], bets: [] });
  assert.equal(statusLine(watcher, 0).text, 'Log in to sit and bet.');
});

test('prompt: the decisions grouped by hand, in order, with their keys', () => {
  const legal = [
    { action: 'split', player: 'ana', box: 3, hand: 1 }, { action: 'hit', player: 'ana', box: 3, hand: 1 },
    { action: 'stand', player: 'ana', box: 3, hand: 1 }, { action: 'hit', player: 'ana', box: 4 },
  ];
  const groups = promptGroups(legal);
  assert.deepEqual(groups.map(g => [g.box, g.hand, g.legal.length]), [[3, 1, 3], [4, 1, 1]]);
  assert.deepEqual(promptButtons('playing', groups[0].legal).map(b => b.label + ':' + b.key), ['Hit:h', 'Stand:s', 'Split:p']);
  assert.deepEqual(promptButtons('follow', [{ action: 'double' }]).map(b => b.label), ['Double too']);
  assert.deepEqual(promptButtons('ace-choice', [{ action: 'declare', value: 11 }, { action: 'declare', value: 1 }]).map(b => b.label + ':' + b.key),
    ['Ace counts 1:1', 'Ace counts 11:e']);
  assert.equal(promptHeading('insurance'), 'Insurance?');
  assert.equal(promptHeading('unknown'), 'Your decision');
});

test('prompt: the words of an insurance window', () => {
  const s = table();
  s.apply({ kind: 'deal', round: 1 });
  s.apply({ kind: 'card', card: 'AD' });
  const ls = [{ action: 'insure', player: 'ana', box: 3, stake: 250 }, { action: 'even-money', player: 'ana', box: 3 }];
  assert.equal(promptText(s, 'insurance', 3, 1, ls),
    'Box 3: the dealer shows an Ace. Insurance pays 2 to 1, up to 2.50. Your blackjack may take even money now.');
});

test('prompt: a stake typed for a decision, checked before it is sent', () => {
  assert.deepEqual(checkStake('2', 'double', 1, 100000, 5000), { stake: 200 });
  assert.equal(checkStake('1500', 'double', 1, 100000).error, 'The double stake must be from 0.01 to 1,000.00: 1,500.00 is out of range.');
  assert.equal(checkStake('abc', 'insurance', 1, 250).error, 'The insurance stake is an amount, from 0.01 to 2.50, e.g. 2.50.');
  assert.equal(checkStake('60', 'double', 1, 100000, 5000).error, 'Your balance is 50.00: not enough to stake 60.00 on the double.');
  setLang('es', false);
  try {
    assert.equal(checkStake('1500', 'double', 1, 100000).error, 'La apuesta del doble va de 0,01 a 1.000,00: 1.500,00 está fuera de ese rango.');
    assert.equal(checkStake('60', 'insurance', 1, 100000, 5000).error, 'Su saldo es 50,00: no alcanza para apostar 60,00 al seguro.');
  } finally {
    setLang('en', false);
  }
  assert.equal(stepStake('5.00', false, 1, 100000, 100), 400);
  assert.equal(stepStake('', true, 1, 100000, 100), 101);
  assert.equal(stepStake('999', true, 1, 100000, 100), 100000);
  assert.deepEqual(actFields({ action: 'insure', box: 3, stake: 250 }), { action: 'insure', box: 3, hand: 1, stake: 250 });
  assert.deepEqual(actFields({ action: 'double', box: 3, hand: 2 }, 200), { action: 'double', box: 3, hand: 2, stake: 200 });
  assert.deepEqual(actFields({ action: 'declare', box: 3, hand: 1, value: 1 }), { action: 'declare', box: 3, hand: 1, value: 1 });
});

test('betting: the chip chosen, the arrow keys, chips that add up', () => {
  const chips = [100, 500, 2500];
  assert.equal(pickChip(chips, 0), 500);
  assert.equal(pickChip(chips, 2500), 2500);
  assert.equal(pickChip([100], 500), 100);
  assert.equal(chipAfterKey(chips, 500, 'ArrowRight'), 2500);
  assert.equal(chipAfterKey(chips, 2500, 'ArrowDown'), 2500);
  assert.equal(chipAfterKey(chips, 100, 'ArrowUp'), 100);
  assert.equal(chipAfterKey(chips, 500, 'Enter'), null);
  assert.equal(nextStake(500, undefined, 500, 100000), 1000);
  assert.equal(nextStake(500, 1500, 500, 100000), 2000, 'a click adds to the stake asked for, not yet shown');
  assert.equal(nextStake(99000, 0, 2500, 100000), 100000);
  assert.ok(forgetsAsked({ kind: 'deal' }, 'ana'));
  assert.ok(forgetsAsked({ kind: 'withdraw', player: 'ana' }, 'ana'));
  assert.ok(!forgetsAsked({ kind: 'withdraw', player: 'bob' }, 'ana'));
});

test('state: a card taken back at a physical table (undo) leaves the hand as before it', () => {
  const s = table();
  const said = [];
  for (const e of [
    { kind: 'deal', round: 1 },
    { kind: 'stake', player: 'ana', box: 3, hand: 1, bet: 'main', amount: 500 },
    { kind: 'card', box: 3, hand: 1, card: '9H' },
    { kind: 'card', box: 3, hand: 1, card: '7C' },
    { kind: 'undo', box: 3, hand: 1, card: '7C' },
    { kind: 'card', box: 0, card: '', face_down: true },
    { kind: 'undo', box: 0 },
  ]) said.push(...s.apply(e).map(x => x.text));
  const h = s.round.hand(3, 1);
  assert.deepEqual(h.cards, ['9H']);
  assert.equal(h.playerTotal(), '9');
  assert.equal(s.round.dealer.cards.length, 0);
  assert.ok(said.includes('The dealer takes back the 7♣: it was misread.'), said.join(' | '));
  assert.ok(said.includes('The dealer takes back a face-down card: it was misread.'), said.join(' | '));
});

// The back bettors' follow cites the table's own
// regulation's rule: VE-11, VE-12 in venice, ES-03 in spain, none at a
// reference table; the call and the prompt alike.
test('follow hints cite the table regulation', () => {
  setLang('en');
  for (const [profile, cite] of [['venice', ' (VE-11, VE-12)'], ['spain', ' (ES-03)'], ['vegas-s17', '']]) {
    const s = new TableState(2, 'ana');
    s.snapshot('e1', 10, { id: 2, name: 'T', profile, rules: RULES, seats: [{ box: 3, player: 'bob' }], bets: [], shoe: { id: 's1', remaining: 300 } });
    const calls = says(s,
      { kind: 'deal', round: 1 },
      { kind: 'window', phase: 'follow' });
    assert.ok(calls.includes(`Back bettors may follow the decision${cite}.`), `${profile}: ${calls}`);
    const text = promptText(s, 'follow', 3, 1, []);
    assert.ok(text.endsWith(`or stay as you are${cite}.`), `${profile}: ${text}`);
    assert.ok(profile === 'venice' || !text.includes('VE-'), `${profile}: ${text}`);
  }
});

test('state: 003 §11 the pit closes the table between rounds, then reopens it', () => {
  const s = table();
  s.apply({ kind: 'bet', player: 'ana', box: 3, amount: 500 });
  // The leave events come first (each player's bets returned), then closed.
  assert.deepEqual(says(s, { kind: 'leave', player: 'ana', amount: 500 }), ['ana leaves the table; 5.00 in bets returned.']);
  assert.deepEqual(s.table.seats, [], 'the seat is freed');
  assert.deepEqual(s.table.bets, [], 'the stake is not kept on the felt');
  assert.deepEqual(says(s, { kind: 'closed', by: 'pit1', table: 7, text: 'few players' }),
    ['The table is closed by pit1. Your bets are returned; you are invited to table 7.']);
  assert.equal(s.table.closed, 'few players');
  assert.ok(s.table.pit_closed);
  assert.equal(s.table.invited_to, 7);
  assert.equal(statusLine(s, 0).text, 'This table is closed: few players');
  // Without a table to go to, and without a reason, it still reads closed.
  const u = table();
  assert.deepEqual(says(u, { kind: 'closed', by: 'pit1' }), ['The table is closed by pit1. Your bets are returned.']);
  assert.equal(u.table.closed, 'closed');
  assert.equal(u.table.invited_to, 0);
  // Reopened: nothing of the closing is left.
  assert.deepEqual(says(s, { kind: 'reopened', by: 'pit1' }), ['The table is open again (pit1).']);
  assert.equal(s.table.closed, '');
  assert.ok(!s.table.pit_closed);
  assert.equal(s.table.invited_to, 0);
  assert.equal(statusLine(s, 0).text, 'Take a free seat, or bet behind a seated player.', 'open again, ana no longer seated');
});

test('state: a physical table\'s new shoe has no commitment, and its call says so (AR-24)', () => {
  const s = table();
  assert.deepEqual(says(s, { kind: 'shoe', shoe: '2-3' }), ['A new shoe, 2-3, shuffled at the table.']);
  assert.equal(s.table.shoe.id, '2-3');
  assert.deepEqual(says(s, { kind: 'shoe', shoe: '2-4', commitment: 'abcdef0123456789' }), ['A new shoe, 2-4: its commitment is abcdef012345…']);
});
