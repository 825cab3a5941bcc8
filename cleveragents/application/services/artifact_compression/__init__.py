"""Artifact-type-tailored compression: detection, per-type strategies, exact budget fitting."""
