"""Adapters: one subpackage per technology, implementing the application's ports."""
