/** A small line of hourly visitors, drawn as inline SVG (no chart library on the sites list). */
export function Sparkline({ points: given, label }: { points: number[]; label: string }) {
  const width = 240;
  const height = 40;
  // A site without data yet (no points) or with one point draws a flat line: a path needs two.
  const points = given.length > 1 ? given : [given[0] ?? 0, given[0] ?? 0];
  const max = Math.max(1, ...points);
  const step = width / (points.length - 1);
  const path = points.map((value, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${(height - 2 - (value / max) * (height - 6)).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={`${path} L${width},${height} L0,${height} Z`} fill="currentColor" opacity="0.12" />
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
