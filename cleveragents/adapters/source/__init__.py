"""Language-aware source outlines with tree-sitter grammars that ship in wheels."""
