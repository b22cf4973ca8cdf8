"""The rules engine and the table referee: pure, deterministic, no I/O devices.

Given the same events it always produces the same state, scores and
violations; no clock, no thread, no camera, serial port or HTTP in here.
"""
