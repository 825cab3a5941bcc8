// Stock keeping for a small warehouse.
import { readFile } from "node:fs/promises";

export type Sku = string;

export interface Shelf {
  add(sku: Sku, quantity?: number): void;
  readonly size: number;
}

export enum Unit {
  Piece = "piece",
  Box = "box",
}

/** Raised when a reservation asks for more than is on the shelf. */
export class OutOfStockError extends Error {
  constructor(public readonly sku: Sku, available: number) {
    super(`only ${available} of ${sku} left`);
  }
}

export class Inventory implements Shelf {
  private readonly counts = new Map<Sku, number>();

  add(sku: Sku, quantity: number = 1): void {
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    const total = (this.counts.get(sku) ?? 0) + quantity; // running total
    this.counts.set(sku, total);
  }

  reserve(sku: Sku, quantity: number): Promise<number> {
    const available = this.counts.get(sku) ?? 0;
    return new Promise((resolve, reject) => {
      if (available < quantity) {
        reject(new OutOfStockError(sku, available));
      }
      resolve(available - quantity);
    });
  }

  get size(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}

/* Read an inventory from a CSV file. */
export async function load(path: string): Promise<Inventory> {
  const text = await readFile(path, "utf8");
  const inventory = new Inventory();
  for (const line of text.split("\n")) {
    const [sku, quantity] = line.split(",");
    inventory.add(sku, Number(quantity));
  }
  return inventory;
}
