// @ts-check
// Short sounds the pages play (your turn, a message, low time), made with the Web Audio API so
// that no sound file travels. Sound is off until the player turns it on: the choice stays in this
// browser's storage, and a browser plays nothing before the page has had a click or a key anyway.

const KEY = "tussle.sound";

/** @typedef {"turn" | "message" | "low-time"} SoundKind */

/** @type {Record<SoundKind, {pitch: number, length: number, beeps: number}>} */
const SOUNDS = {
  turn: { pitch: 660, length: 0.12, beeps: 1 },
  message: { pitch: 880, length: 0.06, beeps: 2 },
  "low-time": { pitch: 440, length: 0.18, beeps: 3 },
};

/** @type {AudioContext | null} */
let context = null;
// How many sounds this page played, by kind: what a test (or a curious person) reads back.
/** @type {Record<string, number>} */
export const played = {};

/** @returns {boolean} whether the player turned sound on in this browser */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // Storage refused (a private window's quota): the choice lasts as long as the page.
  }
}

/**
 * Play a sound of `kind` if sound is on (and count it in `played`).
 * @param {SoundKind} kind
 */
export function beep(kind) {
  if (!soundOn()) return;
  const sound = SOUNDS[kind];
  try {
    context = context || new AudioContext();
    const start = context.currentTime;
    for (let i = 0; i < sound.beeps; i += 1) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = sound.pitch;
      gain.gain.value = 0.08;
      oscillator.connect(gain).connect(context.destination);
      const at = start + i * sound.length * 1.6;
      oscillator.start(at);
      oscillator.stop(at + sound.length);
    }
    played[kind] = (played[kind] || 0) + 1;
    document.documentElement.dataset.soundsPlayed = String(Object.values(played).reduce((a, b) => a + b, 0));
  } catch {
    // No audio device or no Web Audio: a sound is a nicety, never a failure.
  }
}
