/* See crc_a.h. Byte-wise, without a table (the ISO 14443-3 annex B update). */
#include "crc_a.h"

uint16_t crc_a(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0x6363;
    for (uint8_t i = 0; i < len; i++) {
        uint8_t b = (uint8_t)(data[i] ^ (crc & 0xFF));
        b = (uint8_t)(b ^ (b << 4));
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}
