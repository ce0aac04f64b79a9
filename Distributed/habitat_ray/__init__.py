"""habitat-ray: run one Habitat scenario as N shards on a Ray cluster and merge them.

`habitat run SCENARIO --shard K/N` simulates a fixed contiguous block of person ids; `habitat merge` adds the
shards' exact (integer / fixed-point) accumulator states, so the merged report is byte-identical to a single
`habitat run`. This package only schedules the shards on Ray, ships them back and calls `habitat merge`.

Ray is imported lazily (only by `habitat_ray.cli` when a run starts), so importing this package never needs Ray.
"""

__version__ = "0.1.0"
