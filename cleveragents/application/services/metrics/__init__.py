"""Truthful metrics: usage import and the metrics report (`metrics_service.MetricsService`).

`usage_normalization` reads provider usage payloads and transcripts; `usage_totals` and
`usage_pricing` sum and price the records; `metrics_scope` and `event_fingerprints` decide
what a scoped report counts; `metrics_report` holds the value types the report is made of.
"""
