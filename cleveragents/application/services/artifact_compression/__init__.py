"""Artifact-type-tailored compression: detection, per-kind compressors, exact budget fitting."""
