// The table WebSocket (docs/protocol.md): a snapshot, then every event in
// order; a gap in seq or a lost connection reconnects with the epoch and
// the last seq applied. Commands carry a command ID, so that one sent again
// (over the socket or, when the socket is down, over HTTP) is applied once.
//
// A node that is stopped keeps the connection open and says nothing, and
// a browser can neither send a WebSocket ping nor see the server's: after
// HEARTBEAT ms without a message the socket sends a ping op, and when
// STALE ms more bring nothing it is dropped and the page reconnects. Commands
// on their way when a socket is lost are sent again on the
// next one.

// HEARTBEAT and STALE are the heartbeat's times (ms).
export const HEARTBEAT = 5000;
export const STALE = 5000;

import { api, session, clientID, commandID, APIError } from './api.js';

// RACES are the reasons of a refusal of a command the table had gone past
// while it was on its way (client.RaceReason): a decision for a turn that
// moved on, at a moment that passed, in an optional window its timer
// closed, a "deal" for a round dealt meanwhile. A normal race of a live
// table, not an error: the page shows the table as it stands, no refusal.
export const RACES = new Set(['out_of_turn', 'wrong_phase', 'no_window', 'nothing_to_answer', 'deal_dealt']);

// raced reports whether an error (a socket's error message, an APIError)
// is such a race.
export function raced(e) {
  return !!e && e.code === 'conflict' && RACES.has(e.reason);
}

export class TableSocket {
  // onMessage(msg) gets snapshots and events in order; onStatus(text) the
  // connection's state ('open', 'connecting', 'closed').
  constructor(table, onMessage, onStatus = () => {}) {
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.epoch = '';
    this.seq = 0;
    this.pending = new Map();
    this.sent = new Map(); // command ID → its answer, while on its way
    this.closed = false;
    this.retry = 0;
    this.pings = 0;
    this.heard = Date.now();
    this.pingAt = 0; // when the ping on its way was sent (0: none)
    this.beat = setInterval(() => this.heartbeat(), 1000);
    this.connect();
  }

  // heartbeat checks the socket once a second: a ping after HEARTBEAT ms of
  // silence; a socket silent STALE ms after its ping is dropped.
  heartbeat(now = Date.now()) {
    const ws = this.ws;
    if (this.closed || !ws) return;
    if (ws.readyState === WebSocket.CONNECTING && now - this.heard >= HEARTBEAT + STALE) {
      this.drop(ws); // a node that takes the connection and never answers
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    if (this.pingAt && now - this.pingAt >= STALE) {
      this.drop(ws);
      return;
    }
    if (!this.pingAt && now - this.heard >= HEARTBEAT) {
      this.pingAt = now;
      ws.send(JSON.stringify({ op: 'ping', command_id: `ping-${++this.pings}` }));
    }
  }

  // drop leaves a socket that stopped answering and reconnects at once: its
  // own close may take as long as its node is stopped.
  drop(ws) {
    ws.onclose = ws.onmessage = ws.onopen = null;
    if (this.ws === ws) this.ws = null;
    try { ws.close(); } catch { /* already closing */ }
    this.onStatus('connecting');
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = new URLSearchParams({ token: session.token || '' });
    if (this.epoch) {
      q.set('epoch', this.epoch);
      q.set('since', String(this.seq));
    }
    this.onStatus('connecting');
    const ws = new WebSocket(`${proto}://${location.host}/api/tables/${this.table}/ws?${q}`);
    this.ws = ws;
    this.heard = Date.now();
    this.pingAt = 0;
    ws.onopen = () => {
      this.retry = 0;
      this.heard = Date.now();
      this.onStatus('open');
      // What the last socket took with it unanswered goes again, under the
      // same command ID: applied once.
      for (const p of this.pending.values()) ws.send(JSON.stringify(p.cmd));
    };
    ws.onmessage = ev => {
      this.heard = Date.now();
      this.pingAt = 0;
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      this.receive(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onStatus('connecting');
      const wait = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => this.reconnect(), wait);
    };
  }

  async reconnect() {
    if (this.closed) return;
    if (this.retry > 3) {
      // Perhaps the session is over: ask, so that the page can say so.
      try { await api('/api/me'); } catch (e) {
        if (e instanceof APIError && e.status === 401) {
          this.onStatus('unauthorized');
          return;
        }
      }
    }
    this.connect();
  }

  // resync drops the connection and comes back for what was missed.
  resync() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.connect();
  }

  receive(m) {
    if (m.type === 'pong') return;
    if (m.command_id && (m.type === 'result' || m.type === 'error' || m.type === 'snapshot')) {
      const p = this.pending.get(m.command_id);
      if (p) {
        this.pending.delete(m.command_id);
        clearTimeout(p.timer);
        if (m.type === 'error') {
          const err = new APIError(0, m.code, m.error);
          err.reason = m.reason; // for the page to word it (i18n.js refusal)
          err.params = m.params;
          err.error = m.error;
          err.raced = raced(err);
          // Refused as past while no event has shown the table going on
          // (the refusal may overtake it): come back for what moved it.
          if (err.raced && this.seq === p.seq) this.resync();
          p.reject(err);
        }
        else p.resolve(m);
      }
      return;
    }
    if (m.type === 'error') {
      this.onMessage(m);
      return;
    }
    if (m.type === 'snapshot') {
      this.epoch = m.epoch;
      this.seq = m.seq;
      this.onMessage(m);
      return;
    }
    if (m.type === 'event') {
      if (this.seq && m.seq <= this.seq) return; // already applied
      if (this.seq && m.seq !== this.seq + 1) {
        this.resync(); // a gap: come back for what is missing
        return;
      }
      this.seq = m.seq;
      this.onMessage(m);
    }
  }

  // command sends a table command and resolves with its answer, or rejects
  // with the server's error (its code and one-line reason). A command whose
  // ID is already on its way is not sent again: it has the first one's
  // answer.
  command(op, fields = {}) {
    const cmd = { op, command_id: commandID(), client_id: clientID, ...fields };
    const sent = this.sent.get(cmd.command_id);
    if (sent) return sent;
    const p = this.send(cmd);
    const done = () => this.sent.delete(cmd.command_id);
    p.then(done, done);
    this.sent.set(cmd.command_id, p);
    return p;
  }

  send(cmd) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          // No answer on the socket: send it again over HTTP; the command ID
          // makes sure it is applied once.
          this.pending.delete(cmd.command_id);
          this.http(cmd).then(resolve, reject);
        }, 8000);
        this.pending.set(cmd.command_id, { cmd, resolve, reject, timer, seq: this.seq });
        this.ws.send(JSON.stringify(cmd));
      });
    }
    return this.http(cmd);
  }

  http(cmd) {
    const { op, ...body } = cmd;
    return api(`/api/tables/${this.table}/${op}`, { method: 'POST', body }).catch(e => {
      if (e instanceof APIError) e.raced = raced(e);
      throw e;
    });
  }

  close() {
    this.closed = true;
    clearInterval(this.beat);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
