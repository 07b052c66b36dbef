// The arithmetic of a hand, as package rules counts it (rules.Count): the
// client totals the cards it is shown the way the dealer announces them.

const VALUE = { A: 1, T: 10, J: 10, Q: 10, K: 10 };

export function value(code) {
  return VALUE[code[0]] || Number(code[0]);
}

export class Count {
  constructor() {
    this.hard = 0; // every Ace counted 1
    this.n = 0;
    this.aces = 0;
    this.declared = 0; // 0, or 1 / 11 (AR-11, VE-13)
    this.lateAces = 0; // Aces after the declaration
  }

  static of(cards) {
    const c = new Count();
    for (const x of cards) c.add(x);
    return c;
  }

  add(code) {
    this.hard += value(code);
    this.n++;
    if (code[0] === 'A') {
      this.aces++;
      if (this.declared) this.lateAces++;
    }
    return this;
  }

  // dealerAdd adds a card to the dealer's hand (rules.Profile.DealerAdd):
  // with staysOne (dealer_ace=stays-one, AR-13) an Ace counted 11 in a soft
  // hand of two cards or more is fixed at 1 before the card, so that A-5
  // then a 2 is 8.
  dealerAdd(code, staysOne) {
    if (staysOne && this.n >= 2 && this.soft()) this.declare(1);
    return this.add(code);
  }

  declare(v) {
    this.declared = v;
    this.lateAces = 0;
    return this;
  }

  total() {
    const h = this.hard;
    if (this.declared === 11) return h + 10;
    if (this.declared === 1) return this.lateAces > 0 && h <= 11 ? h + 10 : h;
    return this.aces > 0 && h <= 11 ? h + 10 : h;
  }

  soft() {
    if (this.declared === 11) return false;
    if (this.declared === 1) return this.lateAces > 0 && this.hard <= 11;
    return this.aces > 0 && this.hard <= 11;
  }

  bust() {
    return this.total() > 21;
  }

  twoCard21() {
    return this.n === 2 && this.aces > 0 && this.hard === 11;
  }

  // announced is the dealer's own total as announced (AR-13): an Ace counts
  // 11 only when that makes 17 to 21.
  announced() {
    const t = this.total();
    return this.soft() && t < 17 ? this.hard : t;
  }
}
