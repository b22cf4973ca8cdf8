/* The tag model; see picc.h. ISO/IEC 14443-3 sections 6.2 (states) and 6.5
 * (anticollision and select). */
#include "picc.h"

#include <string.h>

#include "../crc_a.h"
#include "../mfrc522_regs.h"

void picc_init(struct picc *p, const uint8_t *uid, uint8_t uid_len)
{
    memset(p, 0, sizeof *p);
    memcpy(p->uid, uid, uid_len);
    p->uid_len = uid_len;
    p->sak = uid_len == 4 ? 0x08 : 0x00;   /* a MIFARE Classic 1K, or an NTAG21x */
}

void picc_power(struct picc *p, int on, uint64_t now)
{
    if (on && p->state == PICC_OFF) {
        p->state = PICC_IDLE;
        p->powered_at = now;
    } else if (!on) {
        p->state = PICC_OFF;   /* no field, no memory of HALT */
    }
    p->level = p->from_halt = 0;
}

static uint8_t levels(const struct picc *p) { return p->uid_len == 4 ? 1 : p->uid_len == 7 ? 2 : 3; }

void picc_level(const struct picc *p, uint8_t level, uint8_t out[5])
{
    uint8_t last = (uint8_t)(level + 1 == levels(p));
    if (last) {
        memcpy(out, p->uid + 3 * level, 4);
    } else {
        out[0] = PICC_CASCADE_TAG;
        memcpy(out + 1, p->uid + 3 * level, 3);
    }
    out[4] = (uint8_t)(out[0] ^ out[1] ^ out[2] ^ out[3]);
}

/* An unexpected frame: back to IDLE, or to HALT for a tag woken from it. */
static int fall_back(struct picc *p)
{
    p->state = p->from_halt ? PICC_HALT : PICC_IDLE;
    p->level = 0;
    return 0;
}

static int atqa(struct picc *p, struct bits *answer)
{
    /* bits 7-6: UID size (single, double, triple); bit 2: bit frame anticollision */
    uint8_t bytes[2] = {(uint8_t)(((levels(p) - 1) << 6) | 0x04), 0x00};
    bits_from_bytes(answer, bytes, 16);
    p->state = PICC_READY;
    p->level = 0;
    return 1;
}

static int with_crc(const uint8_t *data, uint8_t len, struct bits *answer)
{
    uint8_t bytes[BITS_MAX_BYTES];
    memcpy(bytes, data, len);
    uint16_t crc = crc_a(data, len);
    bytes[len] = (uint8_t)crc;
    bytes[len + 1] = (uint8_t)(crc >> 8);
    bits_from_bytes(answer, bytes, (unsigned)(len + 2) * 8);
    return 1;
}

static int crc_ok(const struct bits *frame)
{
    if (frame->n % 8 || frame->n < 24)
        return 0;
    uint8_t len = (uint8_t)(frame->n / 8 - 2);
    uint16_t crc = crc_a(frame->data, len);
    return frame->data[len] == (uint8_t)crc && frame->data[len + 1] == (uint8_t)(crc >> 8);
}

/* SEL + NVB + the known bits of the level: answer the rest if they match. */
static int anticollision(struct picc *p, const struct bits *frame, struct bits *answer)
{
    uint8_t nvb = frame->data[1];
    unsigned known = (unsigned)((nvb >> 4) - 2) * 8 + (nvb & 0x0F);
    if ((nvb >> 4) < 2 || (nvb & 0x0F) > 7 || known > 32 || frame->n != 16 + known)
        return fall_back(p);
    uint8_t level[5];
    picc_level(p, p->level, level);
    struct bits mine;
    bits_from_bytes(&mine, level, 40);
    for (unsigned i = 0; i < known; i++)
        if (bit_at(&mine, i) != bit_at(frame, 16 + i))
            return 0;   /* not this tag: it stays READY and keeps quiet */
    memset(answer, 0, sizeof *answer);
    for (unsigned i = known; i < 40; i++)
        bit_put(answer, i - known, bit_at(&mine, i));
    answer->n = (uint8_t)(40 - known);
    return 1;
}

static int select_level(struct picc *p, const struct bits *frame, struct bits *answer)
{
    uint8_t level[5];
    picc_level(p, p->level, level);
    if (frame->n != 72 || !crc_ok(frame))
        return fall_back(p);
    if (memcmp(frame->data + 2, level, 5) != 0)
        return 0;   /* another tag was selected */
    if (p->level + 1 < levels(p)) {
        p->level++;
        uint8_t sak = SAK_CASCADE;
        return with_crc(&sak, 1, answer);
    }
    p->state = PICC_ACTIVE;
    return with_crc(&p->sak, 1, answer);
}

int picc_receive(struct picc *p, const struct bits *frame, uint64_t now, struct bits *answer)
{
    if (p->state == PICC_OFF || now < p->powered_at + PICC_STARTUP_NS)
        return 0;
    if (frame->n == 7) {   /* a short frame: REQA or WUPA */
        uint8_t command = frame->data[0] & 0x7F;
        int wakes = p->state == PICC_IDLE || (command == PICC_WUPA && p->state == PICC_HALT);
        if ((command == PICC_REQA || command == PICC_WUPA) && wakes) {
            p->from_halt = p->state == PICC_HALT;
            return atqa(p, answer);
        }
        return p->state == PICC_HALT || p->state == PICC_IDLE ? 0 : fall_back(p);
    }
    if (frame->n < 16)
        return p->state == PICC_READY || p->state == PICC_ACTIVE ? fall_back(p) : 0;
    uint8_t command = frame->data[0];
    switch (p->state) {
    case PICC_READY:
        if (command != PICC_SEL_CL1 + 2 * p->level)
            return fall_back(p);
        return frame->data[1] == NVB_SELECT ? select_level(p, frame, answer) : anticollision(p, frame, answer);
    case PICC_ACTIVE:
        if (command == PICC_HLTA && frame->n == 32 && frame->data[1] == 0x00 && crc_ok(frame)) {
            p->state = PICC_HALT;   /* no answer: silence is the acknowledgement */
            p->from_halt = 0;
            return 0;
        }
        return fall_back(p);
    default:
        return 0;   /* IDLE and HALT tags only listen for REQA / WUPA */
    }
}
