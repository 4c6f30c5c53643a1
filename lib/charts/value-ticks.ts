/** Round bounds and ~4 ticks for the value axis. */
export function valueTicks(min: number, max: number): number[] {
  if (min === max) {
    const margin = Math.abs(min) * 0.1 || 1;
    min = min === 0 ? 0 : min - margin;
    max = max + margin;
  }
  const raw = (max - min) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const first = Math.floor(min / step) * step;
  // the last tick is at or above the largest value, so the plot holds every point
  const ticks = [Number(first.toPrecision(12))];
  while (ticks[ticks.length - 1]! < max) ticks.push(Number((first + ticks.length * step).toPrecision(12)));
  return ticks;
}
