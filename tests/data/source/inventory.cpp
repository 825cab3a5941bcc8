// Stock keeping for a small warehouse.
#include <map>
#include <stdexcept>
#include <string>

namespace shop {

constexpr int kMaxItems = 1000;

/// Counts items by SKU.
class Inventory {
public:
    Inventory() = default;
    explicit Inventory(std::map<std::string, int> counts) : counts_(std::move(counts)) {}

    void add(const std::string& sku, int quantity);
    int reserve(const std::string& sku, int quantity);

    int size() const {
        int total = 0;
        for (const auto& [sku, count] : counts_) total += count;
        return total;
    }

private:
    std::map<std::string, int> counts_; // by SKU
};

void Inventory::add(const std::string& sku, int quantity) {
    if (quantity <= 0) {
        throw std::invalid_argument("quantity must be positive");
    }
    counts_[sku] += quantity; /* running total */
}

int Inventory::reserve(const std::string& sku, int quantity) {
    int available = counts_[sku];
    auto remaining = [&]() {
        return available - quantity;
    };
    if (available < quantity) {
        throw std::out_of_range("only " + std::to_string(available) + " left");
    }
    counts_[sku] = remaining();
    return remaining();
}

template <typename T>
T clamp_quantity(T value) {
    return value < 0 ? 0 : value;
}

}  // namespace shop
