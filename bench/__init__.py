"""Benchmarks for graphmem: synthetic games of a chosen size (:mod:`bench.generate`) and the runs that use them."""
