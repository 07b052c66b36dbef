// The quick bets and the table's history (issue 15, deliverable 6): pure
// functions from what the table shows to the commands sent.
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { lastStakes, rebetPlan, doublePlan, undoPlan, clearPlan } from '../static/js/betting.js';
import { tableRounds, sessionResult } from '../static/js/history.js';

test('re-bet: the last round main stakes on the same spots, within the maximum', () => {
  const round = { bets: [
    { player: 'ana', box: 3, hand: 1, kind: 'main', stake: 500 },
    { player: 'ana', box: 3, hand: 1, kind: 'double', stake: 500 },
    { player: 'ana', box: 3, hand: 2, kind: 'split', stake: 500 },
    { player: 'ana', box: 5, hand: 1, kind: 'main', stake: 2000 },
    { player: 'ana', box: 3, hand: 1, kind: 'insurance', stake: 250 },
    { player: 'ben', box: 3, hand: 1, kind: 'main', stake: 100 },
  ] };
  const last = lastStakes(round, 'ana');
  assert.deepEqual(last, [{ box: 3, stake: 500 }, { box: 5, stake: 2000 }]);
  assert.deepEqual(rebetPlan(last, 1000), [
    { op: 'bet', fields: { box: 3, stake: 500 } },
    { op: 'bet', fields: { box: 5, stake: 1000 } },
  ]);
  assert.deepEqual(lastStakes(null, 'ana'), []);
});

test('double: each stake down twice, capped, nothing for a stake at the maximum', () => {
  assert.deepEqual(doublePlan([{ box: 1, stake: 300 }, { box: 2, stake: 700 }, { box: 4, stake: 1000 }], 1000), [
    { op: 'bet', fields: { box: 1, stake: 600 } },
    { op: 'bet', fields: { box: 2, stake: 1000 } },
  ]);
});

test('undo: the last chip back off its spot; clear: every bet withdrawn', () => {
  assert.deepEqual(undoPlan([]), []);
  assert.deepEqual(undoPlan([{ box: 1, before: 0 }, { box: 1, before: 500 }]), [{ op: 'bet', fields: { box: 1, stake: 500 } }]);
  assert.deepEqual(undoPlan([{ box: 2, before: 0 }]), [{ op: 'withdraw', fields: { box: 2 } }]);
  assert.deepEqual(clearPlan([{ box: 1, stake: 5 }, { box: 4, stake: 5 }]), [
    { op: 'withdraw', fields: { box: 1 } },
    { op: 'withdraw', fields: { box: 4 } },
  ]);
});

test('history: a table rounds newest first; the session since the page opened', () => {
  const list = [
    { id: '2-9', table: 2, at: 300, net: 500 },
    { id: '7-1', table: 7, at: 250, net: -100 },
    { id: '2-8', table: 2, at: 200, net: -250 },
    { id: '2-7', table: 2, at: 100, net: 1000 },
  ];
  assert.deepEqual(tableRounds(list, 2, 2).map(r => r.id), ['2-9', '2-8']);
  assert.deepEqual(sessionResult(list, 2, 150), { rounds: 2, net: 250 });
  assert.deepEqual(sessionResult(list, 2, 1000), { rounds: 0, net: 0 });
});
