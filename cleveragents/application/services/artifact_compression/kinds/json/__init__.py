"""JSON artifacts: Tier 2, and smart mode's fit of a valid document to a budget."""
