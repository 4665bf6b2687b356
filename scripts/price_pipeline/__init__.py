"""gpufleet's price pipeline: reads the SkyPilot catalog CSVs in the upstream's own formats and
writes config/prices/ (see docs/prices.md). Python 3.11 standard library only."""
