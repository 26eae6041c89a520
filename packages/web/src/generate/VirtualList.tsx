import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useRef } from "react";

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  readonly label: string;
  readonly rowHeight: number;
  readonly renderItem: (item: T, index: number) => ReactNode;
  readonly keyOf: (item: T) => string;
  readonly maxHeight?: number;
}

/** A scrolling list that renders only the rows in view (extracted questions can number thousands). */
export function VirtualList<T>({
  items,
  label,
  rowHeight,
  renderItem,
  keyOf,
  maxHeight = 360,
}: VirtualListProps<T>) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  return (
    <section
      ref={scroller}
      className="generate-virtual"
      style={{ maxHeight }}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it.
      tabIndex={0}
      aria-label={label}
    >
      <ul className="generate-virtual-inner" style={{ height: virtualizer.getTotalSize() }}>
        {(rows.length === 0
          ? items.slice(0, 20).map((_, index) => ({ index, start: index * rowHeight }))
          : rows
        ).map((row) => {
          const item = items[row.index] as T;
          return (
            <li
              key={keyOf(item)}
              className="generate-virtual-row"
              style={{ transform: `translateY(${row.start}px)`, height: rowHeight }}
            >
              {renderItem(item, row.index)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
