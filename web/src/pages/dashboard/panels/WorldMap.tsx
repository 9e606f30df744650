import { useState } from 'react';
import { formatNumber } from '../../../format';
import type { QueryResult } from '../context';
import { MAP_HEIGHT, MAP_WIDTH } from './mapFrame';
import { SHAPES } from './worldShapes';

/** "1 visitor", "12 visitors": the metric's name is plural in the query API. */
const counted = (value: number, metric: string) => `${formatNumber(value)} ${value === 1 ? metric.replace(/s$/, '') : metric}`;

/**
 * Visitors by country as a world map drawn from a bundled topojson (no tiles, no third-party
 * request): the darker, the more visitors; a click filters the dashboard by the country. The
 * pointer's country shows its name and visitors in a tooltip beside it.
 */
export default function WorldMap({
  result,
  metric,
  pick,
  label,
}: {
  result: QueryResult;
  metric: string;
  pick(code: string): void;
  label(code: string): string;
}) {
  const values = new Map(result.results.map((row) => [row.dimensions[0] ?? '', row.metrics[0] ?? 0]));
  const max = Math.max(1, ...values.values());
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);
  return (
    <div className="world-map-frame" onPointerLeave={() => setTip(null)}>
      {tip && (
        <div className="map-tooltip" aria-hidden="true" style={{ left: tip.x, top: tip.y }}>
          {tip.text}
        </div>
      )}
      {/* A group, not an image: an image's parts are hidden from assistive technology, and the countries are buttons. */}
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; it takes the group role */}
      <svg
        className="world-map"
        viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`}
        role="group"
        aria-label={`Map of ${metric} by country`}
        onPointerMove={(event) => {
          const name = event.target instanceof SVGPathElement ? event.target.dataset.name : undefined;
          const frame = event.currentTarget.getBoundingClientRect();
          setTip(name ? { text: name, x: event.clientX - frame.left, y: event.clientY - frame.top } : null);
        }}
      >
        {SHAPES.map((shape, i) => {
          const value = shape.code ? values.get(shape.code) : undefined;
          const title = `${shape.code ? label(shape.code) : shape.name}: ${counted(value ?? 0, metric)}`;
          // A few shapes share no code (disputed areas): the position tells them apart.
          const key = `${shape.code}-${i}`;
          if (!value) {
            return <path key={key} d={shape.d} data-name={title} />;
          }
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>; it takes the role
            <path
              key={key}
              d={shape.d}
              data-country={shape.code}
              data-name={title}
              className="has-data"
              role="button"
              tabIndex={0}
              aria-label={`Filter by ${title}`}
              style={{ fill: `color-mix(in srgb, var(--accent) ${15 + Math.round((value / max) * 85)}%, var(--surface-2))` }}
              onClick={() => pick(shape.code)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') pick(shape.code);
              }}
            />
          );
        })}
      </svg>
    </div>
  );
}
