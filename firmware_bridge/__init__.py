"""The table's RFID readers: both ends of the serial link, and a virtual table.

Host side (Python, pyserial):

- ``protocol``: the wire protocol's frames, decoder and encoder (DESIGN).
- ``session``: the host's recovery rules (handshake, SEQ gaps, restarts, SNAP
  reconciliation, silence), without I/O.
- ``bridge``: the port itself (any pyserial URL, exclusive, reconnecting) and the
  events it hands out: ``TagEvent``/``LinkEvent`` become the referee's observations.
- ``mapping``: ``tags.csv`` (UID -> card) and ``antennas.csv`` (antenna -> zone).
- ``debounce``: presence debounce, the firmware's algorithm.
- ``adapters``: off-the-shelf readers (one UID per line, PN532 in HSU mode).
- ``virtual_table``: the firmware's part on a pseudo-terminal, with faults on demand.
- ``cli``: ``belote-table bridge monitor|simulate`` and ``calibrate tags``.

Device side: ``firmware/`` (portable C codec, scan and table core, the ESP32 +
MFRC522 sketch, host-side C tests). Wiring: ``docs/wiring.md``; protocol
details: ``docs/wire-protocol.md``.
"""
