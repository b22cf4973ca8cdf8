/* A frame on the air as the simulator sees it: n bits, least significant bit
 * of each byte first (ISO/IEC 14443-3). Shared by the tag and reader models. */
#ifndef BELOTE_SIM_BITS_H
#define BELOTE_SIM_BITS_H

#include <stdint.h>
#include <string.h>

#define BITS_MAX_BYTES 16

struct bits {
    uint8_t data[BITS_MAX_BYTES];
    uint8_t n;                   /* number of bits */
};

static inline int bit_at(const struct bits *b, unsigned i) { return (b->data[i / 8] >> (i % 8)) & 1; }

static inline void bit_put(struct bits *b, unsigned i, int v)
{
    if (v)
        b->data[i / 8] |= (uint8_t)(1u << (i % 8));
    else
        b->data[i / 8] &= (uint8_t)~(1u << (i % 8));
}

static inline void bits_from_bytes(struct bits *b, const uint8_t *bytes, unsigned nbits)
{
    memset(b, 0, sizeof *b);
    memcpy(b->data, bytes, (nbits + 7) / 8);
    b->n = (uint8_t)nbits;
}

#endif
