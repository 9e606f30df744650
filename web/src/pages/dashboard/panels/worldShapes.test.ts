import { describe, expect, it } from 'vitest';
import { MAP_HEIGHT, MAP_MARGIN, MAP_WIDTH } from './mapFrame';
import { SHAPES } from './worldShapes';

/** The points of SVG paths of absolute moves and lines, as d3-geo writes them: [xs, ys]. */
function points(...paths: string[]): [number[], number[]] {
  const numbers = paths.flatMap((d) => (d.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number));
  return [numbers.filter((_, i) => i % 2 === 0), numbers.filter((_, i) => i % 2 === 1)];
}

describe('the world map', () => {
  it('holds every country inside its box, with no empty band above or below', () => {
    const [xs, ys] = points(...SHAPES.map((shape) => shape.d));
    const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    expect(left).toBeGreaterThanOrEqual(MAP_MARGIN - 0.5);
    expect(right).toBeLessThanOrEqual(MAP_WIDTH - MAP_MARGIN + 0.5);
    // The width is filled, and so is the height: the box has the shapes' own proportions.
    expect(right - left).toBeGreaterThan(MAP_WIDTH - 2 * MAP_MARGIN - 1);
    expect(top).toBeGreaterThanOrEqual(MAP_MARGIN - 0.5);
    expect(top).toBeLessThan(MAP_MARGIN + 1);
    expect(bottom).toBeLessThanOrEqual(MAP_HEIGHT - MAP_MARGIN + 0.5);
    expect(bottom).toBeGreaterThan(MAP_HEIGHT - MAP_MARGIN - 1);
  });

  it('draws Greenland whole and leaves Antarctica out', () => {
    const greenland = SHAPES.find((shape) => shape.code === 'GL');
    expect(greenland).toBeDefined();
    expect(SHAPES.some((shape) => shape.code === 'AQ')).toBe(false);
    // Its north coast is the map's top, drawn inside the margin rather than cut by the edge.
    const top = Math.min(...points(greenland?.d ?? '')[1]);
    expect(top).toBeGreaterThanOrEqual(MAP_MARGIN - 0.5);
    expect(top).toBeLessThan(MAP_MARGIN + 40);
  });
});
