// The felt: a semicircle of the table's boxes around the dealer, as players
// know a blackjack table. Box 1, the first dealt (the dealer's left), is on
// the right; each box shows its hands, its betting spots (the box holder's
// and the back bettors', VE-03) and its holder. The live table and the
// replay draw the same felt from a TableState.

import { h, svgEl, replace, keepFocus, cardEl, money, signed, netClass, chipClass, chipLabel, chipStack } from './dom.js';
import { t as tr } from './i18n.js';

// resultText is a hand's result as shown: result.win "Win", …
const resultText = r => tr('result.' + r);

// feltPrint is what the layout says, printed on the cloth.
function feltPrint(values, profile) {
  const lines = [];
  if (values) {
    const [a, b] = values.blackjack_pays.split(':');
    lines.push(tr('print.pays', { a, b }));
    lines.push(tr(values.dealer_hits_soft_17 === 'true' ? 'print.h17' : 'print.s17'));
    if (values.insurance === 'true') lines.push(tr('print.insurance'));
  } else lines.push(tr('print.blackjack'));
  const svg = svgEl('svg', { class: 'felt-print', viewBox: '0 0 1000 540', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  const defs = svgEl('defs');
  svg.append(defs);
  lines.forEach((text, i) => {
    const y = 150 + i * 30;
    defs.append(svgEl('path', { id: `arc-${profile}-${i}`, d: `M ${270 - i * 10},${y} Q 500,${y + 120} ${730 + i * 10},${y}` }));
    svg.append(svgEl('text', { class: i === 0 ? 'print-main' : 'print-sub' },
      svgEl('textPath', { href: `#arc-${profile}-${i}`, startOffset: '50%', 'text-anchor': 'middle' }, text)));
  });
  svg.append(svgEl('path', { class: 'print-line', d: 'M 150,110 Q 500,470 850,110' }));
  fitPrint(svg);
  return svg;
}

// printWidth is how long a printed line is set straight, in the print's
// units: the same text and style as on its arc (a line longer than its arc
// is cut at both ends, its width along the arc is not what the eye reads).
function printWidth(svg, text) {
  const probe = svgEl('text', { class: text.getAttribute('class') }, text.textContent);
  // The page's CSP takes no style attribute: the fitted size is copied.
  probe.style.fontSize = text.style.fontSize;
  probe.style.letterSpacing = text.style.letterSpacing;
  svg.append(probe);
  const w = probe.getComputedTextLength();
  probe.remove();
  return w;
}

// fitPrint shrinks each printed line that is longer than its arc until it
// fits with a margin («IL BANCO CHIAMA CARTA FINO A 16 E SI FERMA
// A 17» was cut at both ends): every line of every profile in every
// language, whatever font the browser has. It measures once the print is
// in the page and shown (a phone hides it); until then it waits a frame.
function fitPrint(svg, tries = 0) {
  if (!svg.isConnected || !svg.getBoundingClientRect().width) {
    if (tries < 120) requestAnimationFrame(() => fitPrint(svg, tries + 1));
    return;
  }
  svg.querySelectorAll('text').forEach((text, i) => {
    const arc = svg.querySelector(`defs path:nth-of-type(${i + 1})`);
    if (!arc) return;
    const room = arc.getTotalLength() * 0.94;
    const w = printWidth(svg, text);
    if (!(w > room)) return;
    const cs = getComputedStyle(text);
    const k = room / w;
    text.style.fontSize = (parseFloat(cs.fontSize) * k).toFixed(2) + 'px';
    text.style.letterSpacing = (parseFloat(cs.letterSpacing) * k || 0).toFixed(2) + 'px';
  });
  svg.dataset.fitted = '1';
}

// boxAngle is where box i of n sits on the table's arc, in radians from
// the right: box 1 on the right (the lobby's small felt uses it too).
export function boxAngle(i, n) {
  const from = 19;
  const to = 161;
  const th = n === 1 ? 90 : from + (to - from) * (i - 1) / (n - 1);
  return th * Math.PI / 180;
}

// position places box i of n on the felt.
function position(i, n) {
  const rad = boxAngle(i, n);
  return { x: 50 + 42.5 * Math.cos(rad), y: 4 + 77 * Math.sin(rad) };
}

export class Felt {
  // opts: {replay, onSpot(box), onSit(box)}
  constructor(opts = {}) {
    this.opts = opts;
    this.el = h('section', { class: 'felt' + (opts.replay ? ' replay' : ''), 'aria-label': tr(opts.replay ? 'felt.tableReplayed' : 'felt.table') });
    this.boxes = new Map();
    this.sigs = new Map();
    this.built = 0;
  }

  build(state) {
    const t = state.table;
    const n = t.rules.boxes;
    this.built = n;
    this.el.replaceChildren();
    this.print = feltPrint(this.values, t.profile);
    this.el.append(this.print);
    this.info = h('div', { class: 'felt-info' });
    this.shoe = h('div', { class: 'shoe' });
    this.dealerCards = h('div', { class: 'cards' });
    this.dealerTotal = h('div', { class: 'total', 'aria-hidden': 'true' });
    this.dealer = h('div', { class: 'dealer', role: 'group', 'aria-label': tr('felt.dealer') },
      h('div', { class: 'dealer-label' }, tr('felt.dealer')), this.dealerCards, this.dealerTotal);
    this.list = h('ol', { class: 'boxes', 'aria-label': tr('felt.boxes', { n }) });
    this.boxes.clear();
    this.sigs.clear();
    for (let i = 1; i <= n; i++) {
      const p = position(i, n);
      const hands = h('div', { class: 'hands' });
      const spots = h('div', { class: 'spots' });
      const plate = h('div', { class: 'plate' });
      const timer = h('div', { class: 'box-timer', hidden: true }, h('span'));
      const li = h('li', { class: 'box', dataset: { box: i }, style: { '--x': p.x.toFixed(2) + '%', '--y': p.y.toFixed(2) + '%' } },
        timer, hands, spots, plate);
      this.boxes.set(i, { li, hands, spots, plate, timer });
      this.list.append(li);
    }
    this.el.append(this.info, this.shoe, this.dealer, this.list);
  }

  // setValues prints the table's rules on the cloth: every option's value
  // (GET /api/tables/{id}/rules).
  setValues(values) {
    this.values = values;
    if (this.print) {
      const p = feltPrint(values, this.print.dataset?.profile || 'p');
      this.print.replaceWith(p);
      this.print = p;
    }
  }

  update(state) {
    const t = state.table;
    if (!t) return;
    if (this.built !== t.rules.boxes) this.build(state);
    const r = state.round;
    const me = state.me;

    // The round and the shoe.
    replace(this.info,
      r ? h('span', {}, tr('felt.round', { round: r.no })) : h('span', {}, tr('felt.noRound')),
      r?.test ? h('span', { class: 'tag test' }, tr('felt.test')) : null,
      t.bank ? h('span', { class: 'tag' }, tr('felt.bank', { player: t.bank })) : null);
    const remaining = t.shoe?.remaining;
    this.shoe.setAttribute('role', 'img');
    this.shoe.setAttribute('aria-label', tr(state.lastRound ? 'felt.shoeLast' : 'felt.shoe', { shoe: t.shoe?.id || '', n: remaining ?? '?' }));
    replace(this.shoe,
      h('span', { class: 'shoe-body', 'aria-hidden': 'true' }, h('span', { class: 'shoe-card' })),
      h('span', { class: 'shoe-count', 'aria-hidden': 'true' }, `${remaining ?? ''}`),
      state.lastRound ? h('span', { class: 'cut', 'aria-hidden': 'true' }, tr('felt.cut')) : null);

    // The dealer.
    const d = r?.dealer;
    const dsig = d ? d.cards.join(' ') + '|' + d.fresh : '';
    if (this.sigs.get('dealer') !== dsig) {
      this.sigs.set('dealer', dsig);
      replace(this.dealerCards, d ? d.cards.map((c, i) => cardEl(c, { fresh: i === d.fresh && !this.opts.replay })) : []);
      if (d) d.fresh = -1;
    }
    const dt = d?.dealerTotal() || '';
    this.dealerTotal.textContent = dt;
    this.dealerTotal.hidden = !dt;
    this.dealer.setAttribute('aria-label', d && d.cards.length ? tr('felt.dealerTotal', { total: dt }) : tr('felt.dealer'));

    // The boxes.
    const back = t.rules.back_bets_per_box || 0;
    const inPlay = state.inPlay();
    const boxTurn = state.boxTurn();
    for (const [box, v] of this.boxes) {
      const seat = state.holder(box);
      const hands = r?.boxes.get(box) || [];
      const turn = boxTurn && boxTurn.box === box ? boxTurn : null;
      // The bets shown: the round's while it is played, else those placed
      // for the next round, else the last round's with their results.
      let bets;
      let holder;
      const next = t.bets.filter(b => b.box === box);
      if (r && (inPlay || next.length === 0)) {
        holder = r.holders.get(box) || '';
        bets = aggregate(r.bets.filter(b => b.box === box));
      } else {
        holder = seat || next[0]?.player || '';
        bets = next.map(b => ({ player: b.player, stake: b.stake, side: [] }));
      }
      const holderBet = bets.find(b => b.player === holder) || null;
      const backBets = bets.filter(b => b.player !== holder);
      const mine = bets.some(b => b.player === me) || seat === me;
      v.li.classList.toggle('mine', !!me && mine);
      v.li.classList.toggle('turn', !!turn);
      v.li.classList.toggle('free', !seat);
      v.li.setAttribute('aria-label', tr(!seat ? 'felt.boxFree' : seat === me ? 'felt.boxYou' : 'felt.boxHeld', { box, player: seat }));

      // Hands.
      const dbl = hands.map((x, i) => x.doubled ? doubled(r, box, i + 1) : null);
      const hsig = hands.map((x, i) => x.cards.join(',') + x.result + x.playerTotal() + x.fresh + (dbl[i]?.mark || '')).join('/') + (turn ? `t${turn.hand}` : '') + (r?.settled ? 's' : '');
      if (this.sigs.get('h' + box) !== hsig) {
        this.sigs.set('h' + box, hsig);
        replace(v.hands, hands.filter(x => x.cards.length).map((x, i) => {
          const d = dbl[hands.indexOf(x)];
          const label = `${state.label(box, i + 1)}: ${x.playerTotal()}${d ? ', ' + d.text : ''}${x.result ? ', ' + resultText(x.result) : ''}`;
          const el = h('div', { class: `hand${turn && turn.hand === i + 1 ? ' current' : ''}${x.result ? ' result-' + x.result : ''}`, role: 'group', 'aria-label': label },
            h('div', { class: 'cards' }, x.cards.map((c, j) => cardEl(c, { fresh: j === x.fresh && !this.opts.replay }))),
            h('div', { class: 'total', 'aria-hidden': 'true' }, x.playerTotal()),
            d ? h('div', { class: 'doubled', title: d.text, 'aria-hidden': 'true' }, d.mark) : null,
            x.result ? h('div', { class: `badge ${x.result}`, 'aria-hidden': 'true' }, resultText(x.result)) : null);
          x.fresh = -1;
          return el;
        }));
      }

      // Spots: the holder's, then the back bettors'.
      const canBet = !!this.opts.onSpot && !!me && !inPlay && !t.closed;
      const seated = state.seatedBoxes().length > 0;
      const spotSig = JSON.stringify([holder, bets, canBet, seated, seat, back]);
      if (this.sigs.get('s' + box) !== spotSig) {
        this.sigs.set('s' + box, spotSig);
        keepFocus(v.spots, () => {
          const spots = [];
          const holderOpen = canBet && (seat === me || (!seat && seated && (!holder || holder === me)));
          const holderSpot = this.spot(box, 'holder', holderBet, holderOpen, me, tr('felt.holderSpot'));
          if (back > 0) {
            // VE-03: the holder's spot between two back bettors' spots.
            const myBack = backBets.find(b => b.player === me);
            const backOpen = canBet && seat && seat !== me && holder !== me;
            const backSpot = i => {
              const b = backBets[i];
              const open = backOpen && (b ? b.player === me : !myBack && i === backBets.length);
              return this.spot(box, 'back', b || null, open, me, tr('felt.backSpot', { n: i + 1 }), i);
            };
            spots.push(backSpot(0), holderSpot);
            if (back > 1) spots.push(backSpot(1));
            if (backBets.length > 2) spots.push(h('span', { class: 'more', title: backBets.slice(2).map(b => b.player).join(', ') }, `+${backBets.length - 2}`));
          } else spots.push(holderSpot);
          replace(v.spots, spots);
        });
      }

      // The holder's plate, and a seat to take.
      const plateSig = JSON.stringify([seat, me, !!this.opts.onSit, t.closed]);
      if (this.sigs.get('p' + box) !== plateSig) {
        this.sigs.set('p' + box, plateSig);
        keepFocus(v.plate, () => replace(v.plate,
          h('span', { class: 'num', 'aria-hidden': 'true' }, box),
          seat ? h('span', { class: 'name' + (seat === me ? ' me' : '') }, seat, seat === me ? h('span', { class: 'visually-hidden' }, tr('felt.youMark')) : null)
            : this.opts.onSit && me && !t.closed
              ? h('button', { class: 'sit', 'data-fk': `sit-${box}`, onclick: () => this.opts.onSit(box), 'aria-label': tr('felt.sitAt', { box }) }, tr('felt.sit'))
              : h('span', { class: 'name free' }, tr('felt.free'))));
      }
    }
  }

  spot(box, role, bet, open, me, what, i = 0) {
    const mine = bet && bet.player === me;
    const cls = `spot ${role}${mine ? ' mine' : ''}${bet ? ' taken' : ''}${open ? ' open' : ''}`;
    const settled = bet && bet.net !== null && bet.net !== undefined;
    const body = [
      h('span', { class: 'ring', 'aria-hidden': 'true' },
        bet ? h('span', { class: 'chipstack' }, chips(bet.stake)) : role === 'back' ? h('span', { class: 'empty' }, tr('felt.back')) : null),
    ];
    if (bet) {
      body.push(h('span', { class: 'amount', 'aria-hidden': 'true' }, money(bet.stake)));
      body.push(h('span', { class: 'who', 'aria-hidden': 'true' }, mine ? tr('felt.you') : bet.player));
      for (const s of bet.side) body.push(h('span', { class: 'side', 'aria-hidden': 'true' }, `${tr('bet.' + s.kind)} ${money(s.stake)}`));
      if (settled) body.push(h('span', { class: 'net ' + netClass(bet.net, 'even'), 'aria-hidden': 'true' }, signed(bet.net)));
    }
    const side = bet && bet.side.length ? '; ' + bet.side.map(s => `${tr('bet.' + s.kind)} ${money(s.stake)}`).join(', ') : '';
    const stake = !bet ? tr('felt.empty')
      : tr(mine ? 'felt.yourStake' : 'felt.theirStake', { player: bet.player, amount: money(bet.stake) }) + side + (settled ? tr('felt.net', { net: signed(bet.net) }) : '');
    const label = tr(open ? 'felt.spotOpen' : 'felt.spot', { box, what, stake });
    if (open) {
      return h('button', { class: cls, 'data-fk': `spot-${box}-${role}-${i}`, 'aria-label': label, onclick: () => this.opts.onSpot(box, role) }, body);
    }
    return h('span', { class: cls, role: 'img', 'aria-label': label }, body);
  }

  // setTimer shows the share of the decision time left on the box in turn.
  setTimer(box, frac) {
    for (const [b, v] of this.boxes) {
      const on = b === box && frac !== null;
      v.timer.hidden = !on;
      if (on) {
        v.timer.firstChild.style.width = `${Math.max(0, Math.min(1, frac)) * 100}%`;
        v.timer.classList.toggle('low', frac < 0.25);
      }
    }
  }
}

// doubled is how a doubled hand is marked: ×2, or, for a double of another
// amount than the stake (VE-19), +2.00.
function doubled(r, box, hand) {
  const holder = r?.holders.get(box);
  const mine = kinds => r?.bets.find(b => b.box === box && (b.hand || 1) === hand && b.player === holder && kinds.includes(b.kind));
  const d = mine(['double']);
  const base = mine(['main', 'split']);
  if (!d || !base || d.stake === base.stake) return { mark: '×2', text: tr('felt.doubled') };
  return { mark: '+' + money(d.stake), text: tr('felt.doubledFor', { amount: money(d.stake) }) };
}

// aggregate sums each player's stakes on a box: the main stake, doubles and
// splits; insurance and the challenge are shown beside; and the net once
// every bet is settled.
function aggregate(bets) {
  const by = new Map();
  for (const b of bets) {
    let a = by.get(b.player);
    if (!a) {
      a = { player: b.player, stake: 0, side: [], net: 0, settled: true };
      by.set(b.player, a);
    }
    if (b.kind === 'insurance' || b.kind === 'challenge') a.side.push({ kind: b.kind, stake: b.stake });
    else a.stake += b.stake;
    a.net += b.net || 0;
    a.settled = a.settled && !!b.result;
  }
  return [...by.values()].map(a => ({ player: a.player, stake: a.stake, side: a.side, net: a.settled ? a.net : null }));
}

// chips draws a stake as a small stack of chips, the largest on top.
function chips(amount) {
  const out = chipStack(amount);
  return out.reverse().map((v, i) => h('span', { class: `chip ${chipClass(v)}`, style: { '--i': i } }, i === out.length - 1 ? chipLabel(v) : ''));
}

