import { geoEqualEarth, geoPath } from 'd3-geo';
import { iso31661NumericToAlpha2 } from 'iso-3166/1-n-to-1-a2.js';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { MAP_HEIGHT, MAP_MARGIN, MAP_WIDTH } from './mapFrame';

// The world once, projected when this chunk loads (it is loaded only when the map is shown):
// Natural Earth's 1:110m countries from world-atlas, keyed by ISO 3166-1 numeric code.
const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
const world = feature(topology, topology.objects.countries);
// Antarctica has no visitors to show and would take a fifth of the height.
const drawn = { ...world, features: world.features.filter((country) => country.properties.name !== 'Antarctica') };
// Fitted to the countries drawn, so the box holds the whole of them (Greenland, Canada's north)
// with no empty band.
const projection = geoEqualEarth().fitExtent(
  [
    [MAP_MARGIN, MAP_MARGIN],
    [MAP_WIDTH - MAP_MARGIN, MAP_HEIGHT - MAP_MARGIN],
  ],
  drawn,
);
const path = geoPath(projection);

/** Each country as an SVG path in the map's box, with its ISO 3166-1 alpha-2 code ('' for disputed areas). */
export const SHAPES = drawn.features.map((country) => ({
  code: iso31661NumericToAlpha2[String(country.id)] ?? '',
  name: country.properties.name,
  d: path(country) ?? '',
}));
