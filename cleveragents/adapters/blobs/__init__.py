"""Blob storage: artifact bytes on the file system, content-addressed."""
