"""Log files: per-line severity (`severity`), smart mode's ranks (`line_plan`), the Tier 2
compressor (`compressor`), message templates (`templates`) and the streaming pass over a log
too large to hold (`streaming`)."""
