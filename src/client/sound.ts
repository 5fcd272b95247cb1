/**
 * Optional sounds (off by default, kept in localStorage), made with Web Audio on the spot: no files. The
 * AudioContext starts on the first sound after the switch, as browsers want a gesture.
 */
export type Sound = 'select' | 'match' | 'shuffle' | 'win';

export interface Sounds {
  on: boolean;
  ctx: AudioContext | null;
}

const KEY = 'mahjong:sound'; // localStorage: '1' when on

export function makeSounds(): Sounds {
  let on = false;
  try {
    on = localStorage.getItem(KEY) === '1';
  } catch {
    // no storage: sound stays off
  }
  return { on, ctx: null };
}

/** Switches sound on or off and remembers it. Mutates. */
export function setSound(sounds: Sounds, on: boolean): void {
  sounds.on = on;
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch {
    // not remembered: switched for this page
  }
  if (on) play(sounds, 'select');
}

/** One tone: Hz, start and length in s from now, peak gain 0–1. */
function tone(
  ctx: AudioContext,
  freq: number,
  start: number,
  length: number,
  peak: number,
  type: OscillatorType = 'sine',
): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t = ctx.currentTime + start;
  gain.gain.setValueAtTime(0, t);
  gain.gain.linearRampToValueAtTime(peak, t + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function brush(ctx: AudioContext, length: number): void {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 1800;
  const gain = ctx.createGain();
  gain.gain.value = 0.12;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

export function play(sounds: Sounds, sound: Sound): void {
  if (!sounds.on) return;
  try {
    sounds.ctx ??= new AudioContext();
    const ctx = sounds.ctx;
    if (ctx.state === 'suspended') void ctx.resume();
    switch (sound) {
      case 'select':
        tone(ctx, 1400, 0, 0.05, 0.05, 'triangle');
        return;
      case 'match':
        tone(ctx, 660, 0, 0.16, 0.08);
        tone(ctx, 990, 0.07, 0.22, 0.07);
        return;
      case 'shuffle':
        brush(ctx, 0.35);
        return;
      case 'win':
        [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.11, 0.45, 0.08));
        return;
    }
  } catch {
    // no audio here: silence is fine
  }
}
