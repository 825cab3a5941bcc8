// Stock keeping for a small warehouse.
package shop.inventory;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/** Counts items by SKU. */
public class Inventory implements Shelf {
    public static final int MAX_ITEMS = 1000;

    private final Map<String, Integer> counts; // by SKU

    public Inventory() {
        this.counts = new HashMap<>();
    }

    @Override
    public void add(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, got " + quantity);
        }
        counts.merge(sku, quantity, Integer::sum); // running total
    }

    public int reserve(String sku, int quantity) throws OutOfStockException {
        int available = counts.getOrDefault(sku, 0);
        IntSupplier remaining = () -> {
            return available - quantity;
        };
        if (available < quantity) {
            throw new OutOfStockException("only " + available + " of " + sku + " left");
        }
        counts.put(sku, remaining.getAsInt());
        return remaining.getAsInt();
    }

    /* The number of items on the shelf. */
    @Override
    public int size() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }
}

interface Shelf {
    void add(String sku, int quantity);

    int size();
}

class OutOfStockException extends Exception {
    OutOfStockException(String message) {
        super(message);
    }
}
