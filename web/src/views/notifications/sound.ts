/** The tones of each `notification_sound` (https://zulip.com/help/notification-sound): frequencies in Hz, played one after another. */
const TONES: Record<string, number[]> = {
  zulip: [880, 1320],
  ding: [1568],
  "chime-bell": [1046, 1318, 1568],
  "beep-boop": [660, 440],
  "clear-throat": [220, 196],
  "down-again": [784, 523],
  "just-like-that": [988, 1175],
  "peek-a-boo": [523, 784],
  "triple-bell": [1318, 1318, 1318],
};

let context: AudioContext | undefined;

/**
 * Plays the notification sound chosen in the reader's settings as a short
 * WebAudio tone (no sound file to download): "none" plays nothing, an
 * unknown name plays Zulip's. Browsers allow audio only after the page had a
 * click or key press; before that it stays silent.
 */
export function playNotificationSound(sound: string): void {
  if (sound === "none" || typeof AudioContext === "undefined") return;
  try {
    context ??= new AudioContext();
    const tones = TONES[sound] ?? TONES.zulip!;
    const start = context.currentTime;
    tones.forEach((hz, i) => {
      const osc = context!.createOscillator();
      const gain = context!.createGain();
      const t = start + i * 0.14;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.13);
      osc.connect(gain).connect(context!.destination);
      osc.start(t);
      osc.stop(t + 0.14);
    });
  } catch {
    // No audio device or autoplay refused: the desktop notification still shows.
  }
}
