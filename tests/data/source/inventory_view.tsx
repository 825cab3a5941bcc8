// A table of the warehouse's stock.
import React, { useState } from "react";

export interface InventoryViewProps {
  counts: Record<string, number>;
  onReserve: (sku: string) => void;
}

type Row = { sku: string; quantity: number };

export function InventoryView({ counts, onReserve }: InventoryViewProps): JSX.Element {
  const [filter, setFilter] = useState("");
  const rows: Row[] = Object.entries(counts)
    .filter(([sku]) => sku.includes(filter))
    .map(([sku, quantity]) => ({ sku, quantity }));
  const handleClick = (sku: string) => {
    if (!(sku in counts)) {
      throw new Error(`unknown SKU ${sku}`);
    }
    onReserve(sku);
  };
  return (
    <table>
      {rows.map((row) => (
        <tr key={row.sku} onClick={() => handleClick(row.sku)}>
          <td>{row.sku}</td>
          <td>{row.quantity}</td>
        </tr>
      ))}
    </table>
  );
}

export class InventoryErrorBoundary extends React.Component<{ children: React.ReactNode }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  render(): React.ReactNode {
    // The children decide what to show while healthy.
    return this.state.failed ? <p>Inventory unavailable</p> : this.props.children;
  }
}
