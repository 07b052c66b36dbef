// Sound and motion, the player's choice, remembered in this browser. Sound is
// off until the player turns it on: short tones made by Web
// Audio (no files) for a card dealt, the player's turn and his results.
// Motion — a card sliding in as it is dealt, and the pause between cards —
// is on unless the player turns it off or his system asks for reduced
// motion (prefers-reduced-motion), which wins.

const SOUND = 'sabot.sound';
const MOTION = 'sabot.motion';

function get(key) {
  try { return globalThis.localStorage?.getItem(key) || ''; } catch { return ''; }
}

function put(key, v) {
  try { globalThis.localStorage?.setItem(key, v); } catch { /* a private window: for the page only */ }
}

export function soundOn() {
  return get(SOUND) === 'on';
}

export function motionOn() {
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  return !reduced && get(MOTION) !== 'off';
}

export function setSound(on) {
  put(SOUND, on ? 'on' : 'off');
  if (on) audio(); // made on the click that asks for it, as browsers require
}

export function setMotion(on) {
  put(MOTION, on ? 'on' : 'off');
  applyMotion();
}

// applyMotion marks the page: .no-motion stops the cards' slide.
export function applyMotion() {
  globalThis.document?.documentElement.classList.toggle('no-motion', !motionOn());
}

// cueOf is the sound an event makes for a player: 'deal' for a card,
// 'turn' for his turn, and at the settlement of a round he played 'win',
// 'lose' or 'push' by his net; '' none.
export function cueOf(e, me) {
  switch (e.kind) {
    case 'card': return 'deal';
    case 'turn': return e.turn && e.turn.players.includes(me) ? 'turn' : '';
    case 'settle': {
      if (!me || !e.net || !(me in e.net)) return '';
      const n = e.net[me];
      return n > 0 ? 'win' : n < 0 ? 'lose' : 'push';
    }
    default: return '';
  }
}

// The tones of each cue: [frequency Hz, start s, length s].
const TONES = {
  deal: [[1400, 0, 0.03]],
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  win: [[523, 0, 0.1], [659, 0.08, 0.1], [784, 0.16, 0.18]],
  lose: [[220, 0, 0.22]],
  push: [[440, 0, 0.12]],
};

let ctx = null;
function audio() {
  const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!AC) return null;
  ctx ??= new AC();
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

// play makes a cue's sound, if sound is on.
export function play(cue) {
  if (!cue || !soundOn()) return;
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime;
  for (const [f, at, len] of TONES[cue] || []) {
    const o = a.createOscillator();
    const g = a.createGain();
    o.frequency.value = f;
    g.gain.setValueAtTime(0.0001, t0 + at);
    g.gain.exponentialRampToValueAtTime(0.08, t0 + at + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    o.connect(g).connect(a.destination);
    o.start(t0 + at);
    o.stop(t0 + at + len + 0.02);
  }
}
