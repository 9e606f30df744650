import { type RefObject, useEffect } from 'react';
import './scrollEdges.css';

/**
 * Marks an element that scrolls sideways with `data-more-before` / `data-more-after` while more of
 * it lies past that edge, so its cut edge fades (scrollEdges.css) and a reader sees that it scrolls.
 * It marks again as the element scrolls, resizes or its content changes (rows arriving).
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const mark = () => {
      // Right-to-left pages count scrollLeft down from 0.
      const scrolled = Math.abs(element.scrollLeft);
      element.toggleAttribute('data-more-before', scrolled > 1);
      element.toggleAttribute('data-more-after', scrolled < element.scrollWidth - element.clientWidth - 1);
    };
    mark();
    element.addEventListener('scroll', mark, { passive: true });
    const resized = new ResizeObserver(mark);
    resized.observe(element);
    const changed = new MutationObserver(mark);
    changed.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      element.removeEventListener('scroll', mark);
      resized.disconnect();
      changed.disconnect();
    };
  }, [ref]);
}
