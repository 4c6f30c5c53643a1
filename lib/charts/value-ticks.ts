/** Round bounds and ~4 ticks for the value axis. */
export function valueTicks(min: number, max: number): number[] {
  if (min === max) {
    const margin = Math.abs(min) * 0.1 || 1;
    min = min === 0 ? 0 : min - margin;
    max = max + margin;
  }
  // a step finer than a double can tell apart at this size would never reach `max`; none is finer than 1e-10
  const raw = Math.max((max - min) / 4, Math.max(Math.abs(min), Math.abs(max)) * 1e-12, 1e-10);
  const exponent = Math.floor(Math.log10(raw));
  const magnitude = 10 ** exponent;
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  // rounded to the step's own decimals (2.5 needs one more), not to a count of significant digits:
  // at 99,999,999.9982 with a step of 0.00005, twelve significant digits made two ticks equal
  const decimals = Math.min(100, Math.max(0, 1 - exponent));
  const tick = (k: number) => Number((k * step).toFixed(decimals));
  let k = Math.floor(min / step);
  if (tick(k) > min) k--; // min / step can round up (or underflow to -0)
  // the last tick is at or above the largest value, so the plot holds every point
  const ticks = [tick(k)];
  while (ticks[ticks.length - 1]! < max) ticks.push(tick(++k));
  return ticks;
}
