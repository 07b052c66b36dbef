// socket.js: the table's socket notices a node that stopped answering
// (a stopped node keeps its connections open and says nothing),
// reconnects, and sends again the commands the lost socket took with it.
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

// A browser's globals, enough for socket.js.
class FakeWS {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeWS.CONNECTING;
    this.sent = [];
    FakeWS.all.push(this);
  }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() { this.closedByPage = true; }
  open() { this.readyState = FakeWS.OPEN; this.onopen && this.onopen(); }
  message(m) { this.onmessage && this.onmessage({ data: JSON.stringify(m) }); }
}
globalThis.WebSocket = FakeWS;
globalThis.location = { protocol: 'http:', host: 'node-a:8080' };

const { TableSocket, HEARTBEAT, STALE } = await import('../static/js/socket.js');

test('socket: a silent node is pinged, then left; the command it took is sent again on the next socket', () => {
  FakeWS.all = [];
  const got = [];
  const s = new TableSocket(4, m => got.push(m));
  try {
    const first = FakeWS.all[0];
    first.open();
    first.message({ type: 'snapshot', epoch: 'e1', seq: 7, table: {} });
    const t0 = s.heard;
    s.command('act', { action: 'hit', box: 1 });
    const act = first.sent.find(c => c.op === 'act');
    assert.ok(act && act.command_id, 'the command went on the socket');
    // Heard from recently: nothing to do.
    s.heartbeat(t0 + HEARTBEAT - 1);
    assert.equal(first.sent.filter(c => c.op === 'ping').length, 0);
    // Silent for HEARTBEAT: a ping.
    s.heartbeat(t0 + HEARTBEAT);
    const pings = first.sent.filter(c => c.op === 'ping');
    assert.equal(pings.length, 1);
    // A pong keeps it.
    first.message({ type: 'pong', command_id: pings[0].command_id });
    s.heartbeat(s.heard + 1000);
    assert.equal(FakeWS.all.length, 1);
    assert.equal(got.length, 1, 'a pong is nobody else\'s business');
    // Silent again, pinged, and STALE later still silent: left.
    const t1 = s.heard;
    s.heartbeat(t1 + HEARTBEAT);
    s.heartbeat(t1 + HEARTBEAT + STALE);
    assert.ok(first.closedByPage, 'the stale socket is closed');
    assert.equal(FakeWS.all.length, 2, 'a new socket at once');
    const next = FakeWS.all[1];
    assert.match(next.url, /epoch=e1/);
    assert.match(next.url, /since=7/);
    next.open();
    const again = next.sent.find(c => c.op === 'act');
    assert.ok(again, 'the unanswered command is sent again');
    assert.equal(again.command_id, act.command_id, 'under the same command ID');
  } finally {
    s.close();
  }
});

test('socket: a connection a node takes and never answers is left', () => {
  FakeWS.all = [];
  const s = new TableSocket(4, () => {});
  try {
    const first = FakeWS.all[0];
    s.heartbeat(s.heard + HEARTBEAT + STALE - 1);
    assert.equal(FakeWS.all.length, 1);
    s.heartbeat(s.heard + HEARTBEAT + STALE);
    assert.ok(first.closedByPage);
    assert.equal(FakeWS.all.length, 2);
  } finally {
    s.close();
  }
});

// A command refused because the table went on while it was on its way (a
// window its timer closed, a turn that moved on) is a race, not an error:
// the page shows no refusal (table.js), and where no event has yet shown
// the table going on the socket comes back for it. A command sent again
// under its ID is answered "duplicate", as a success.
test('socket: a closed window or a turn that moved on is a race, resynced; a duplicate is an answer', async () => {
  FakeWS.all = [];
  const s = new TableSocket(4, () => {});
  try {
    const first = FakeWS.all[0];
    first.open();
    first.message({ type: 'snapshot', epoch: 'e1', seq: 7, table: {} });
    const refused = (ws, reason, op = 'decline') => {
      const p = s.command(op, { box: 1 });
      const cmd = ws.sent.filter(c => c.op === op).at(-1);
      return { p, answer: () => ws.message({ type: 'error', command_id: cmd.command_id, code: 'conflict', error: 'refused', reason }) };
    };
    // The event that closed the window came first: a race, nothing to resync.
    let c = refused(first, 'no_window');
    first.message({ type: 'event', seq: 8, event: { kind: 'decline', player: 'ann', box: 2, by: 'timeout' } });
    c.answer();
    let e = await c.p.then(() => null, err => err);
    assert.ok(e && e.raced, 'no_window after the event: a race');
    assert.equal(FakeWS.all.length, 1, 'the events show the table: no resync');
    // The refusal overtook the event: a race, and the socket comes back
    // for what moved the table on.
    c = refused(first, 'out_of_turn', 'act');
    c.answer();
    e = await c.p.then(() => null, err => err);
    assert.ok(e && e.raced, 'out_of_turn: a race');
    assert.ok(first.closedByPage, 'the socket is left for a new one');
    assert.equal(FakeWS.all.length, 2);
    const next = FakeWS.all[1];
    assert.match(next.url, /epoch=e1/);
    assert.match(next.url, /since=8/);
    next.open();
    // A refusal that is no race is an error, and nothing is resynced.
    c = refused(next, 'stake_refused', 'act');
    c.answer();
    e = await c.p.then(() => null, err => err);
    assert.ok(e && !e.raced && e.reason === 'stake_refused', 'a stake refused is a refusal to show');
    assert.equal(FakeWS.all.length, 2, 'no resync for a refusal');
    // A duplicate resolves: the first answer's, not an error.
    const p = s.command('act', { action: 'hit', box: 1 });
    const cmd = next.sent.filter(x => x.op === 'act').at(-1);
    next.message({ type: 'result', command_id: cmd.command_id, log_seq: 9, duplicate: true });
    const r = await p;
    assert.equal(r.duplicate, true);
  } finally {
    s.close();
  }
});
