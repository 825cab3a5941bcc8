"""Helpers of the governed artifact store: media types, previews."""
