"""Plan and PRD markdown: its blocks (`blocks`), sentences (`sentences`), smart mode's ranks
(`line_plan`) and the Tier 2 compressor (`compressor`)."""
