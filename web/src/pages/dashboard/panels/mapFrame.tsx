/**
 * The world map's drawing box: the countries (without Antarctica) fitted to its width leave no
 * band above or below them (worldShapes.ts fits them; worldShapes.test.ts checks the fit). The
 * placeholder takes the same shape before the shapes load, so the map moves nothing.
 */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 431;
/** The room kept around the shapes, so the outermost coasts' strokes are not cut. */
export const MAP_MARGIN = 8;

/** What stands in the map's place, at its shape, until its shapes have loaded. */
export function MapPlaceholder() {
  return <div className="panel-skeleton map-skeleton" style={{ aspectRatio: `${MAP_WIDTH} / ${MAP_HEIGHT}` }} aria-hidden="true" />;
}
