"""Code diffs (git's unified format): reading them (`parsing`, `roles`), the Tier 2 compressor
(`compressor`) and smart mode's line ranks (`line_plan`)."""
