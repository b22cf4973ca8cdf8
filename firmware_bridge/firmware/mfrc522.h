/* A register-level driver for the NXP MFRC522 (13.56 MHz ISO/IEC 14443 A
 * reader), written from its datasheet and ISO/IEC 14443-3, for the table's
 * board: one chip per antenna on a shared SPI bus (mfrc522_port.h).
 *
 * It offers exactly what scan.c needs, as a struct reader_ops:
 *   init    soft reset, timer, 100 % ASK, receiver gain, field on;
 *   field   the antenna drivers off, or on (then 5 ms for the tags to power up);
 *   wupa    WUPA, after checking the chip answers on SPI at all;
 *   reqa    REQA;
 *   select  bit-oriented anticollision + SELECT, cascade levels 1-3: 4-, 7- and
 *           10-byte UIDs, any number of colliding tags (one bit per round);
 *           2 instead of 1 when it had to resolve a collision (a pile);
 *   halt    HLTA, sent with Transmit (nothing to wait for: a tag never answers it).
 * Each returns 1 (done / a tag answered), 0 (no tag, or no clean answer: an
 * RF error is a miss, never a chip failure) or -1 (the chip does not answer on
 * SPI or never finishes a command), so scan.c's debounce sees misses and its
 * re-initialisation (a soft reset, after REINIT_AFTER_ERRORS failed scans)
 * sees only real failures.
 *
 * The receive timeout is the chip's own timer (TAuto: it starts at the end of
 * our frame and stops at the first bits of an answer). A tag answers every
 * command used here within 91 us (ISO 14443-3 frame delay time, 1236/fc), so
 * MFRC522_TIMEOUT_US = 1 ms is ten times that, and an empty antenna costs
 * about 1.2 ms per scan instead of the 25 ms of the usual Arduino library. */
#ifndef BELOTE_MFRC522_H
#define BELOTE_MFRC522_H

#include <stdint.h>

#include "scan.h"

#ifndef MFRC522_TIMEOUT_US
#define MFRC522_TIMEOUT_US 1000
#endif
#define MFRC522_POLL_US 32      /* how often the driver looks at ComIrqReg while the chip works */
#define MFRC522_GUARD_US 10000  /* a command that has not finished by then: the chip is lost */
#define MFRC522_FIELD_MS 5      /* after switching the field on: ISO 14443-3 gives a tag 5 ms */

struct mfrc522 {
    uint8_t chip;      /* the board's chip select number */
    uint8_t rx_gain;   /* RFCfgReg RxGain bits (RX_GAIN_48DB: the most sensitive) */
    uint8_t version;   /* VersionReg, read at the last init */
};

/* The driver as scan.c sees it; each reader context is a struct mfrc522 *. */
extern const struct reader_ops MFRC522_OPS;

#endif
