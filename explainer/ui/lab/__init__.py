"""The Gaming lab page: presets, attack generators, sweeps and the metric optimizer."""
