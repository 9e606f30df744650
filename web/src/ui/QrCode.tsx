import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/**
 * A QR code drawn in the page as SVG (qrcode-generator computes the modules): a two-factor secret
 * never leaves the browser for a third-party image service. Dark modules on white, with the quiet
 * zone of four modules the standard asks for, in dark mode too (cameras read dark on light).
 */
export function QrCode({ text, label, size = 184 }: { text: string; label: string; size?: number }) {
  const path = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(text);
    code.make();
    const count = code.getModuleCount();
    const parts: string[] = [];
    for (let row = 0; row < count; row += 1) {
      for (let col = 0; col < count; col += 1) if (code.isDark(row, col)) parts.push(`M${col + 4} ${row + 4}h1v1h-1z`);
    }
    return { d: parts.join(''), extent: count + 8 };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${path.extent} ${path.extent}`} shapeRendering="crispEdges">
      <rect width={path.extent} height={path.extent} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}
