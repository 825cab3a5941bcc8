"""Smart mode's packer: what to pack (`request`), the order lines are offered in (`order`), and
the packing within an exact token budget (`packer`)."""
