/* CRC_A of ISO/IEC 14443-3 (annex B): initial 0x6363, polynomial x^16 + x^12 +
 * x^5 + 1 taken least significant bit first (0x8408); sent low byte first.
 * HLTA 50 00 carries 57 CD. Used by the MFRC522 driver (SELECT, HLTA, SAK)
 * and by the simulator's tags, which check it like a real tag does. */
#ifndef BELOTE_CRC_A_H
#define BELOTE_CRC_A_H

#include <stdint.h>

uint16_t crc_a(const uint8_t *data, uint8_t len);

#endif
