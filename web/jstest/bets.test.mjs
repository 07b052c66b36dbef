// betting.js: re-bet, double, undo and clear as plans of bet commands, from
// the last round's stakes and the spots open now.
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { roomOn, rebetPlan, doublePlan, undoPlan, clearPlan, commandsOf, lastStakes } from '../static/js/betting.js';

// view is ana at box 3 and bea at box 5 of a table taking back bets.
function view(bets = [], more = {}) {
  return {
    me: 'ana', seats: [{ box: 3, player: 'ana' }, { box: 5, player: 'bea' }], bets,
    maxBet: 1000, backBetsPerBox: 2, perBox: false, ...more,
  };
}

test('re-bet: the last stakes on the same spots, her box and a back bet', () => {
  const last = [{ box: 3, stake: 200 }, { box: 5, stake: 100 }];
  const p = rebetPlan(view(), last, 5000);
  assert.deepEqual(p, { bets: last });
  assert.deepEqual(commandsOf(p), [{ op: 'bet', box: 3, stake: 200 }, { op: 'bet', box: 5, stake: 100 }]);
});

test('re-bet: refused whole when a spot is no longer open or the balance does not cover', () => {
  const last = [{ box: 3, stake: 200 }, { box: 4, stake: 100 }];
  assert.match(rebetPlan(view(), last, 5000).reason, /box 4 is no longer yours/);
  assert.match(rebetPlan(view([], { backBetsPerBox: 0 }), [{ box: 5, stake: 100 }], 5000).reason, /no back bets/);
  assert.match(rebetPlan(view(), [{ box: 3, stake: 200 }], 199).reason, /balance does not cover/);
  assert.match(rebetPlan(view(), [], 5000).reason, /no bets to repeat/);
  // Already betting: re-bet is not what a click means.
  assert.match(rebetPlan(view([{ player: 'ana', box: 3, stake: 100 }]), [{ box: 3, stake: 200 }], 5000).reason, /already/);
  // A back bet on a box whose back bets are full.
  const full = view([{ player: 'cai', box: 5, stake: 100 }, { player: 'dan', box: 5, stake: 100 }]);
  assert.match(rebetPlan(full, [{ box: 5, stake: 100 }], 5000).reason, /no more back bets/);
  // Over the maximum left on the box (ES-03: a box's stakes together).
  const shared = view([{ player: 'bea', box: 5, stake: 950 }], { perBox: true });
  assert.match(rebetPlan(shared, [{ box: 5, stake: 100 }], 5000).reason, /at most 0\.50/);
  // The pit raised the minimum since.
  assert.match(rebetPlan(view([], { minBet: 500 }), [{ box: 3, stake: 200 }], 5000).reason, /minimum is 5\.00/);
});

test('double: every stake of hers doubled, within the maximum, others untouched', () => {
  const bets = [{ player: 'ana', box: 3, stake: 300 }, { player: 'ana', box: 5, stake: 600 }, { player: 'bea', box: 5, stake: 500 }];
  assert.deepEqual(doublePlan(view(bets), 5000), { bets: [{ box: 3, stake: 600 }, { box: 5, stake: 1000 }] });
  // The box's stakes together within the maximum: 500 of bea's leave 500.
  assert.deepEqual(doublePlan(view(bets, { perBox: true }), 5000), { bets: [{ box: 3, stake: 600 }] });
  assert.match(doublePlan(view(bets), 699).reason, /balance/);
  assert.deepEqual(doublePlan(view(bets), 700).bets.length, 2);
  assert.match(doublePlan(view([{ player: 'ana', box: 3, stake: 1000 }]), 5000).reason, /maximum/);
  assert.match(doublePlan(view(), 5000).reason, /no bets/);
});

test('undo: the last change back, a withdrawal at 0; refused when the stakes changed', () => {
  const v = view([{ player: 'ana', box: 3, stake: 300 }]);
  assert.deepEqual(commandsOf(undoPlan(v, [{ box: 3, before: 200, after: 300 }])), [{ op: 'bet', box: 3, stake: 200 }]);
  assert.deepEqual(commandsOf(undoPlan(v, [{ box: 3, before: 0, after: 300 }])), [{ op: 'withdraw', box: 3 }]);
  assert.match(undoPlan(v, [{ box: 3, before: 0, after: 100 }]).reason, /changed/);
  assert.match(undoPlan(v, undefined).reason, /nothing/);
});

test('clear: a withdrawal for each of her bets', () => {
  const v = view([{ player: 'ana', box: 3, stake: 300 }, { player: 'bea', box: 5, stake: 100 }, { player: 'ana', box: 5, stake: 100 }]);
  assert.deepEqual(commandsOf(clearPlan(v)), [{ op: 'withdraw', box: 3 }, { op: 'withdraw', box: 5 }]);
  assert.match(clearPlan(view()).reason, /no bets/);
});

test('roomOn and lastStakes', () => {
  assert.deepEqual(roomOn(view(), 3), { max: 1000 });
  assert.match(roomOn(view(), 1).reason, /take a seat/);
  const round = [
    { player: 'ana', box: 3, hand: 1, kind: 'main', stake: 200 },
    { player: 'ana', box: 3, hand: 1, kind: 'double', stake: 200 },
    { player: 'bea', box: 5, hand: 1, kind: 'main', stake: 500 },
    { player: 'ana', box: 5, hand: 1, kind: 'main', stake: 100 },
    { player: 'ana', box: 3, hand: 0, kind: 'insurance', stake: 100 },
  ];
  assert.deepEqual(lastStakes(round, 'ana'), [{ box: 3, stake: 200 }, { box: 5, stake: 100 }]);
});
