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
- ``card_table``: the table as a player sees it (cards on zones) and its script language.
- ``virtual_table``: the firmware's part, played in Python on a pseudo-terminal, with faults on demand.
- ``avr_table``: the same table run by the real firmware on a simulated Arduino Mega 2560.
- ``cli``: ``belote-table bridge monitor|simulate`` and ``calibrate tags``.

Device side: ``firmware/`` (portable C: codec, scan and table core, the MFRC522
driver; ``avr/`` the Arduino Mega 2560 board layer; ``sim/`` the board simulated on
libsimavr; ``test/`` host-side C tests). ``make firmware`` builds it. Wiring and
flashing: ``docs/wiring.md``; protocol details: ``docs/wire-protocol.md``.
"""
