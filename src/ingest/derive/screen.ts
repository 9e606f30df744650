export function screenSize(width: number | undefined): '' | 'Mobile' | 'Tablet' | 'Laptop' | 'Desktop' {
  if (width === undefined) return '';
  return width < 576 ? 'Mobile' : width < 992 ? 'Tablet' : width < 1440 ? 'Laptop' : 'Desktop';
}
