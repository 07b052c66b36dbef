// Once sends each of a player's decisions once, however often it is asked
// for (a double-click on Hit drew two cards). A command asked for
// again while the first is on its way is dropped; asked for again after the
// answer but at the same decision point (the page has not yet drawn what
// the answer changed), it goes with the same command ID, and the server
// answers "duplicate" (docs/protocol.md) without acting twice. A refused
// command frees its key: the player may choose again.

export class Once {
  // newID makes a command ID (api.js commandID).
  constructor(newID) {
    this.newID = newID;
    this.point = '';
    this.ids = new Map(); // key → the command ID it goes with at this point
    this.busy = new Set(); // keys on their way
  }

  // at sets the decision point: a new one forgets the old one's commands.
  at(point) {
    if (point === this.point) return;
    this.point = point;
    this.ids.clear();
    this.busy.clear();
  }

  // busyWith reports whether the command of key is on its way.
  busyWith(key) {
    return this.busy.has(key);
  }

  // send runs send(commandID) for key, unless key's command is on its way
  // (then it resolves null at once); send resolves whether the command was
  // taken. With keep false the ID is forgotten after the answer (a command
  // a player may repeat, as taking a seat after leaving it).
  async send(key, send, keep = true) {
    if (this.busy.has(key)) return null;
    let id = this.ids.get(key);
    if (!id) {
      id = this.newID();
      this.ids.set(key, id);
    }
    const point = this.point;
    this.busy.add(key);
    let ok = false;
    try {
      ok = await send(id);
      return ok;
    } finally {
      if (this.point === point) {
        this.busy.delete(key);
        if (!ok || !keep) this.ids.delete(key);
      }
    }
  }
}

// decisionPoint is where the round stands for the decisions offered now:
// another turn, another stake or another card on the table is another
// point, so that a decision made there is a new command.
export function decisionPoint(state) {
  const tn = state.turn;
  const r = state.round;
  if (!tn || !r) return '';
  let cards = r.dealer.cards.length;
  for (const hs of r.boxes.values()) for (const h of hs) cards += h ? h.cards.length : 0;
  return JSON.stringify([r.id, tn.phase, tn.box || 0, tn.hand || 0, tn.deadline || 0, r.bets.length, cards]);
}
