// What the pages add to the browser's globals, and what older browsers call by another name.
interface Window {
  /** the signals' counts, read by the page's tests (signals.js) */
  cardtableSignals?: { sounds: number; notifications: number };
  /** Safari before 14.1 */
  webkitAudioContext?: typeof AudioContext;
}
