/* Stock keeping for a small warehouse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 1000

// Counts items by SKU.
struct inventory {
    char skus[MAX_ITEMS][16];
    int counts[MAX_ITEMS]; /* by SKU */
    int size;
};

typedef int (*visitor)(const char *sku, int count);

static int find(const struct inventory *inv, const char *sku);

int inventory_add(struct inventory *inv, const char *sku, int quantity)
{
    if (quantity <= 0) {
        fprintf(stderr, "quantity must be positive, got %d\n", quantity);
        return -1;
    }
    int slot = find(inv, sku); // running total
    inv->counts[slot] += quantity;
    return 0;
}

int inventory_reserve(struct inventory *inv, const char *sku, int quantity) {
    int slot = find(inv, sku);
    if (inv->counts[slot] < quantity) {
        abort();
    }
    inv->counts[slot] -= quantity;
    return inv->counts[slot];
}

static int find(const struct inventory *inv, const char *sku) {
    for (int i = 0; i < inv->size; i++) {
        if (strcmp(inv->skus[i], sku) == 0) {
            return i;
        }
    }
    return -1;
}

struct inventory *inventory_load(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        perror("inventory_load");
        return NULL;
    }
    struct inventory *inv = calloc(1, sizeof *inv);
    fclose(file);
    return inv;
}
