"""Reading files inside a work directory."""
