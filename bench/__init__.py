"""Benchmarks (``make bench``): each part adds a module with a ``run()`` function."""
