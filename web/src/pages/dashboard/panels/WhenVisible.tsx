import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Draws its children once they come near the screen (within 100 px), the placeholder until then:
 * the map's chunk (50 KB gzipped of shapes) is fetched when the locations panel is about to be
 * seen, not with the dashboard's first load (test/web/bundleSize.test.ts counts without it).
 */
export function WhenVisible({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const holder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = holder.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: '100px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return near ? children : <div ref={holder}>{placeholder}</div>;
}
