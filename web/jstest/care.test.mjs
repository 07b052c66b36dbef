// The reality check's clock (reality.js; docs/players.md).
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { clock, nextCheck } from '../static/js/reality.js';

test('clock: a session time as m:ss or h:mm:ss', () => {
  assert.equal(clock(0), '0:00');
  assert.equal(clock(61_500), '1:01');
  assert.equal(clock(3_723_000), '1:02:03');
  assert.equal(clock(-5), '0:00');
});

test('nextCheck: the next multiple of the interval after the last shown', () => {
  const m = 60_000;
  assert.equal(nextCheck(0, 15 * m, 0), 15 * m);
  assert.equal(nextCheck(0, 15 * m, 16 * m), 30 * m); // one shown at 16 min: the next at 30
  assert.equal(nextCheck(1000, 10 * m, 500), 1000 + 10 * m);
  assert.equal(nextCheck(0, 0, 0), Infinity); // none
});
