/**
 * Loading placeholders in plain markup, without Mantine, so they paint at once:
 * `PageSkeleton` is every page's view while its code loads (the router's pending view, and the shell's
 * while Mantine's provider and the query client load); `PanelSkeleton` stands for one panel of a page
 * while its data or its code loads. Each is a `status` region named after what loads, marked aria-busy.
 */
import type { CSSProperties } from 'react';
import classes from './page-skeleton.module.css';

function Bones({ lines, height }: { lines: number; height?: number }) {
  return (
    <>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder
        <div key={i} className={`${classes.bone} ${classes.line}`} style={{ width: `${90 - i * 20}%` }} />
      ))}
      {height !== undefined && <div className={`${classes.bone} ${classes.block}`} />}
    </>
  );
}

/** A page's frame while its code loads: a title bar and three panels. Named "Loading page". */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Loading page" aria-busy="true" className={classes.page}>
      <span className={classes.hidden}>Loading page…</span>
      <div className={`${classes.bone} ${classes.title}`} />
      <div className={classes.grid}>
        {[220, 160, 160].map((h, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder
          <div key={i} className={classes.panel} style={{ minHeight: h }}>
            <Bones lines={2} height={h} />
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * One panel while it loads: a bordered box of `height` pixels (at least) with `lines` text bars, named
 * `label` (e.g. "Loading trading pairs") for assistive technology and tests.
 */
export function PanelSkeleton({
  label,
  height = 120,
  lines = 2,
  style,
}: {
  label: string;
  height?: number;
  lines?: number;
  style?: CSSProperties;
}) {
  return (
    <div
      role="status"
      aria-label={label}
      aria-busy="true"
      className={classes.panel}
      style={{ minHeight: height, ...style }}
    >
      <span className={classes.hidden}>{label}…</span>
      <Bones lines={lines} height={height} />
    </div>
  );
}
