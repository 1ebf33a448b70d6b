/**
 * The one table of orders on the exchange: the book's buy and sell lists, the member's own orders and
 * the admin's View Orders. Each caller picks its columns; the table brings the title, the empty row, the
 * clickable rows and (when it may overflow) a scroll region that takes keyboard focus (axe).
 */

import type { MantineColor, MantineFontSize, MantineSpacing } from '@mantine/core';
import { Box, Table, Text, Title } from '@mantine/core';
import type { Order } from '@starlight/shared';
import type { ReactNode } from 'react';
import classes from './orders-table.module.css';

/** Side and state badges never shrink into an ellipsis: full words, always. */
export const WHOLE = { root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } } as const;

/**
 * The Hub's address hash of My orders on every pair (the dashboard's "and N more" links there). Kept here,
 * beside the table both share, so the dashboard's summary loads none of My orders' filters and dialogs.
 */
export const MY_ORDERS_HASH = 'my-orders';

export interface OrderColumn {
  /** Header text; a visually hidden one for an actions column. */
  header: string;
  hiddenHeader?: boolean;
  align?: 'right';
  color?: MantineColor;
  cell: (order: Order) => ReactNode;
}

/**
 * A list in a box of capped height that scrolls; it takes keyboard focus so it can be scrolled without a
 * mouse (axe). `label` names the region ("Sell price levels (scrollable)").
 */
export function ScrollRegion({
  label,
  maxHeight,
  children,
}: {
  label: string;
  maxHeight: number;
  children: ReactNode;
}) {
  return (
    <Box mah={maxHeight} style={{ overflowY: 'auto' }} role="region" aria-label={`${label} (scrollable)`} tabIndex={0}>
      {children}
    </Box>
  );
}

export function OrdersTable({
  label,
  title,
  titleColor,
  orders,
  columns,
  empty,
  onRowClick,
  rowLabel,
  scroll,
  scrollHeight,
  fz = 'sm',
  horizontalSpacing,
}: {
  /** The table's accessible name ("Sell orders", "My orders"). */
  label: string;
  /** A heading above the table, if any. */
  title?: string;
  titleColor?: MantineColor;
  orders: Order[];
  columns: OrderColumn[];
  /** The text of the single row shown when there is no order. */
  empty: string;
  onRowClick?: (order: Order) => void;
  /** A row's accessible name (e.g. "Sell order Placed"). */
  rowLabel?: (order: Order) => string;
  /** Wrap in a horizontal scroll region of this minimum width (0: never wider than the screen). */
  scroll?: { minWidth: number };
  /** Cap the table's height at this many pixels: it then scrolls in a `ScrollRegion`. */
  scrollHeight?: number;
  fz?: MantineFontSize;
  horizontalSpacing?: MantineSpacing;
}) {
  const table = (
    <Table
      aria-label={label}
      striped
      highlightOnHover={Boolean(onRowClick)}
      verticalSpacing={4}
      fz={fz}
      horizontalSpacing={horizontalSpacing}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.header} ta={c.align}>
              {c.hiddenHeader ? <span className={classes.srOnly}>{c.header}</span> : c.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {orders.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={columns.length}>
              <Text size="sm" c="dimmed">
                {empty}
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          orders.map((o) => (
            <Table.Tr
              key={o._id}
              aria-label={rowLabel?.(o)}
              onClick={onRowClick && (() => onRowClick(o))}
              style={onRowClick ? { cursor: 'pointer' } : undefined}
            >
              {columns.map((c) => (
                <Table.Td key={c.header} ta={c.align} c={c.color}>
                  {c.cell(o)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
  return (
    <div>
      {title && (
        <Title order={3} size="h5" mb={4} c={titleColor}>
          {title}
        </Title>
      )}
      {scrollHeight !== undefined ? (
        <ScrollRegion label={label} maxHeight={scrollHeight}>
          {table}
        </ScrollRegion>
      ) : scroll ? (
        <Table.ScrollContainer
          minWidth={scroll.minWidth}
          type="native"
          tabIndex={0}
          role="region"
          aria-label={`${label} (scrollable)`}
        >
          {table}
        </Table.ScrollContainer>
      ) : (
        table
      )}
    </div>
  );
}
