// Stock keeping for a small warehouse.
import { readFile } from "node:fs/promises";

const MAX_ITEMS = 1000;

/** Raised when a reservation asks for more than is on the shelf. */
export class OutOfStockError extends Error {
  constructor(sku, available) {
    super(`only ${available} of ${sku} left`);
    this.sku = sku;
  }
}

export class Inventory {
  counts = new Map();

  add(sku, quantity = 1) {
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    const total = (this.counts.get(sku) ?? 0) + quantity; // running total
    this.counts.set(sku, total);
  }

  reserve(sku, quantity) {
    const available = this.counts.get(sku) ?? 0;
    const remaining = () => {
      return available - quantity;
    };
    if (available < quantity) {
      throw new OutOfStockError(sku, available);
    }
    this.counts.set(sku, remaining());
    return remaining();
  }

  get size() {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }
}

/* Read an inventory from a CSV file. */
export async function load(path) {
  const text = await readFile(path, "utf8");
  const inventory = new Inventory();
  text.split("\n").forEach(function (line) {
    const [sku, quantity] = line.split(",");
    inventory.add(sku, Number(quantity));
  });
  return inventory;
}

export const double = (x) => x * 2;
