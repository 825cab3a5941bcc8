"""The demo tour: the product's whole job on small real samples (`agents demo`)."""

from cleveragents.application.services.demo_tour.steps import (
    BlockedImport,
    CategoryRecovery,
    CompactionStep,
    ImportStep,
    LogStep,
    MetricsStep,
    RankedFragment,
    SkeletonStep,
    StoredImport,
    TourStep,
)
from cleveragents.application.services.demo_tour.tour import DemoTour, TourSamples

__all__ = [
    "BlockedImport",
    "CategoryRecovery",
    "CompactionStep",
    "DemoTour",
    "ImportStep",
    "LogStep",
    "MetricsStep",
    "RankedFragment",
    "SkeletonStep",
    "StoredImport",
    "TourSamples",
    "TourStep",
]
