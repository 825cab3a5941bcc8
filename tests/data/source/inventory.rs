//! Stock keeping for a small warehouse.
use std::collections::HashMap;
use std::fs;

/// Bounds a single shelf.
pub const MAX_ITEMS: usize = 1000;

#[derive(Debug)]
pub enum InventoryError {
    OutOfStock { sku: String, available: u32 },
    Io(std::io::Error),
}

/// Counts items by SKU.
#[derive(Debug, Default)]
pub struct Inventory {
    counts: HashMap<String, u32>, // by SKU
}

pub trait Shelf {
    fn add(&mut self, sku: &str, quantity: u32);
    fn size(&self) -> u32 {
        0
    }
}

impl Inventory {
    pub fn reserve(&mut self, sku: &str, quantity: u32) -> Result<u32, InventoryError> {
        let available = *self.counts.get(sku).unwrap_or(&0);
        let remaining = |taken: u32| -> u32 { available - taken };
        if available < quantity {
            return Err(InventoryError::OutOfStock { sku: sku.to_string(), available });
        }
        self.counts.insert(sku.to_string(), remaining(quantity));
        Ok(remaining(quantity))
    }
}

impl Shelf for Inventory {
    fn add(&mut self, sku: &str, quantity: u32) {
        if quantity == 0 {
            panic!("quantity must be positive");
        }
        *self.counts.entry(sku.to_string()).or_insert(0) += quantity; // running total
    }
}

/* Read an inventory from a CSV file. */
pub fn load(path: &str) -> Inventory {
    let text = fs::read_to_string(path).expect("inventory file is readable");
    let mut inventory = Inventory::default();
    for line in text.lines() {
        inventory.add(line, 1);
    }
    inventory
}
