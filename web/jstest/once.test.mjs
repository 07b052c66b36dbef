// once.js: a decision sent once however often it is clicked. Run: node --test
// web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Once, decisionPoint } from '../static/js/once.js';
import { TableState } from '../static/js/state.js';

function ids() {
  let n = 0;
  return () => `c${++n}`;
}

test('once: a click repeated while the first is on its way is not sent', async () => {
  const once = new Once(ids());
  const sent = [];
  let answer;
  const send = id => { sent.push(id); return new Promise(res => { answer = res; }); };
  const first = once.send('3-1', send);
  assert.equal(await once.send('3-1', send), null);
  assert.ok(once.busyWith('3-1'));
  answer(true);
  assert.equal(await first, true);
  assert.deepEqual(sent, ['c1']);
  assert.ok(!once.busyWith('3-1'));
});

test('once: after the answer, at the same point, the same command ID; at the next point a new one', async () => {
  const once = new Once(ids());
  const sent = [];
  const send = async id => { sent.push(id); return true; };
  once.at('p1');
  await once.send('3-1', send);
  await once.send('3-1', send); // the page has not drawn the answer yet
  once.at('p2'); // a card came: another decision
  await once.send('3-1', send);
  assert.deepEqual(sent, ['c1', 'c1', 'c2']);
});

test('once: a refused command frees its key; keep=false forgets the ID', async () => {
  const once = new Once(ids());
  const sent = [];
  await once.send('a', async id => { sent.push(id); return false; });
  await once.send('a', async id => { sent.push(id); return true; });
  await once.send('sit-2', async id => { sent.push(id); return true; }, false);
  await once.send('sit-2', async id => { sent.push(id); return true; }, false);
  assert.deepEqual(sent, ['c1', 'c2', 'c3', 'c4']);
});

test('once: a send that throws frees its key', async () => {
  const once = new Once(ids());
  await assert.rejects(once.send('a', async () => { throw new Error('down'); }));
  assert.ok(!once.busyWith('a'));
});

test('decisionPoint: a card, a stake or a new turn is a new point', () => {
  const s = new TableState(2, 'ana');
  s.snapshot('e1', 1, { id: 2, name: 'Madrid', profile: 'spain', rules: { boxes: 7, min_bet: 100, max_bet: 100000 }, seats: [{ box: 1, player: 'ana' }], bets: [] });
  assert.equal(decisionPoint(s), '');
  s.apply({ kind: 'deal', round: 1 });
  s.apply({ kind: 'stake', player: 'ana', box: 1, bet: 'main', amount: 500 });
  for (const c of ['9S', '7D', '8C']) s.apply({ kind: 'card', box: c === '7D' ? 0 : 1, card: c });
  const turn = { phase: 'playing', box: 1, hand: 1, players: ['ana'], deadline: 1000, legal: [{ player: 'ana', box: 1, hand: 1, action: 'hit' }] };
  s.apply({ kind: 'turn', turn });
  const p1 = decisionPoint(s);
  assert.notEqual(p1, '');
  assert.equal(decisionPoint(s), p1);
  s.apply({ kind: 'card', box: 1, card: '2H' });
  const p2 = decisionPoint(s);
  assert.notEqual(p2, p1);
  s.apply({ kind: 'stake', player: 'ana', box: 1, bet: 'double', amount: 500 });
  assert.notEqual(decisionPoint(s), p2);
});
