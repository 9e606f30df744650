/**
 * Screen size of a visit from the viewport width `w` (CSS pixels) the tracker sends. The
 * thresholds are the ones Plausible used while it read `w` (Bootstrap-like breakpoints).
 * Empty when `w` is absent or not a usable width (negative, NaN, infinite).
 */
export function screenSize(width: number | undefined): '' | 'Mobile' | 'Tablet' | 'Laptop' | 'Desktop' {
  if (width === undefined || !Number.isFinite(width) || width < 0) return '';
  if (width < 576) return 'Mobile';
  if (width < 992) return 'Tablet';
  if (width < 1440) return 'Laptop';
  return 'Desktop';
}
