// Package inventory keeps stock for a small warehouse.
package inventory

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// MaxItems bounds a single shelf.
const MaxItems = 1000

var ErrOutOfStock = errors.New("out of stock")

// Inventory counts items by SKU.
type Inventory struct {
	counts map[string]int // by SKU
}

// Shelf is anything that holds items.
type Shelf interface {
	Add(sku string, quantity int) error
	Size() int
}

// Add puts items on the shelf.
func (inv *Inventory) Add(sku string, quantity int) error {
	if quantity <= 0 {
		return fmt.Errorf("quantity must be positive, got %d", quantity)
	}
	inv.counts[sku] += quantity // running total
	return nil
}

func (inv *Inventory) Reserve(sku string, quantity int) int {
	available := inv.counts[sku]
	remaining := func() int {
		return available - quantity
	}
	if available < quantity {
		panic(fmt.Sprintf("only %d of %s left", available, sku))
	}
	inv.counts[sku] = remaining()
	return remaining()
}

/* Load reads an inventory from a CSV file. */
func Load(path string) (*Inventory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	inv := &Inventory{counts: map[string]int{}}
	for _, line := range strings.Split(string(data), "\n") {
		inv.counts[line]++
	}
	return inv, nil
}
