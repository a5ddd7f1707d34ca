import { BlockStack, Box, IndexTable, InlineStack, Text, useBreakpoints } from '@shopify/polaris';
import type { IndexTableProps } from '@shopify/polaris';
import type { ReactNode } from 'react';

/** A row of a RowsTable: its cells in the order of the headings; null or '' where it has nothing to show. */
type IndexTableHeading = IndexTableProps['headings'][number];

export interface TableRow {
  id: string;
  cells: ReactNode[];
}

/**
 * An IndexTable of rows given as cells. On a phone (Polaris' `smDown`, as in the Shopify mobile
 * app) it is condensed, each row one stacked item: its `titleColumn`'s cell as the title, then each
 * other cell that has something beside its heading (an `action` column's buttons need none), rather
 * than columns scrolled sideways out of the card.
 */
export function RowsTable({
  name,
  headings,
  rows,
  action = false,
  titleColumn = 0,
  numeric = [],
}: {
  /** What the rows are, for screen readers (Polaris' resourceName). */
  name: { singular: string; plural: string };
  headings: [string, ...string[]];
  rows: TableRow[];
  /** The last column holds the row's action (buttons that say what they do): its heading is for screen readers only. */
  action?: boolean;
  /** The column that names the row, the title of its stacked item. */
  titleColumn?: number;
  /** Columns of figures, aligned at their end on the desktop so that their digits line up. */
  numeric?: number[];
}) {
  const condensed = useBreakpoints().smDown;
  const last = headings.length - 1;
  return (
    <IndexTable
      condensed={condensed}
      resourceName={name}
      itemCount={rows.length}
      selectable={false}
      headings={
        headings.map((title, j) => ({
          title,
          ...(action && j > 0 && j === last ? { hidden: true } : {}),
          ...(numeric.includes(j) ? { alignment: 'end' as const } : {}),
        })) as [IndexTableHeading, ...IndexTableHeading[]]
      }
    >
      {rows.map((row, i) => (
        <IndexTable.Row id={row.id} key={row.id} position={i}>
          {condensed ? (
            <Box paddingBlock="300" paddingInline="400" width="100%">
              <BlockStack gap="150">
                <Text as="span" fontWeight="semibold">
                  {row.cells[titleColumn]}
                </Text>
                {row.cells.map((cell, j) =>
                  j === titleColumn || cell === null || cell === '' ? null : (
                    // Heading and value on one line where both fit; a long value wraps below its heading.
                    <InlineStack key={j} align="space-between" blockAlign="start" gap="200">
                      {action && j === last ? null : (
                        <Text as="span" tone="subdued">
                          {headings[j]}
                        </Text>
                      )}
                      <div>{cell}</div>
                    </InlineStack>
                  ),
                )}
              </BlockStack>
            </Box>
          ) : (
            row.cells.map((cell, j) => (
              <IndexTable.Cell key={j}>
                {numeric.includes(j) ? (
                  <Text as="span" alignment="end" numeric>
                    {cell}
                  </Text>
                ) : (
                  cell
                )}
              </IndexTable.Cell>
            ))
          )}
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
