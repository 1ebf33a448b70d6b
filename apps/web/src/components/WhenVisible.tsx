/**
 * Draws `children` once the frame has been scrolled to (an IntersectionObserver through Mantine's
 * `useInViewport`), and keeps them drawn after: a chart below the fold costs nothing until it is seen.
 * Until then the frame holds `minHeight`, so the page does not jump when the chart arrives.
 */
import { useInViewport } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';

export function WhenVisible({ minHeight, children }: { minHeight: number; children: ReactNode }) {
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (inViewport) setSeen(true);
  }, [inViewport]);
  return (
    <div ref={ref} style={{ minHeight: seen ? undefined : minHeight }} data-drawn={seen}>
      {seen ? children : null}
    </div>
  );
}
