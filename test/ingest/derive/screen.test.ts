import { describe, expect, it } from 'vitest';
import { screenSize } from '../../../src/ingest/derive/screen.js';

describe('screenSize', () => {
  it.each([
    [undefined, ''],
    [0, 'Mobile'],
    [375, 'Mobile'],
    [575, 'Mobile'],
    [575.9, 'Mobile'],
    [576, 'Tablet'],
    [991, 'Tablet'],
    [992, 'Laptop'],
    [1439, 'Laptop'],
    [1440, 'Desktop'],
    [3840, 'Desktop'],
    [-1, ''],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
  ])('%s → %j', (width, size) => {
    expect(screenSize(width)).toBe(size);
  });
});
