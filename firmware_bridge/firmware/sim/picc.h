/* An ISO/IEC 14443-3 type A tag (PICC), at frame level: its state machine
 * (POWER-OFF, IDLE, READY, ACTIVE, HALT, and READY* / ACTIVE* for a tag woken
 * from HALT), and its answers to REQA, WUPA, the bit-oriented anticollision,
 * SELECT and HLTA, at cascade levels 1-3 (4-, 7- and 10-byte UIDs).
 *
 * The reader model (mfrc522_model.c) hands it each frame the reader sends and
 * overlays the answers of every tag in the field, collisions included. */
#ifndef BELOTE_SIM_PICC_H
#define BELOTE_SIM_PICC_H

#include <stdint.h>

#include "bits.h"

/* ISO 14443-3: a tag in an unmodulated field must accept a command within
 * 5 ms; the model takes all of it, so a reader that does not wait is caught. */
#define PICC_STARTUP_NS 5000000ull

enum picc_state { PICC_OFF, PICC_IDLE, PICC_READY, PICC_ACTIVE, PICC_HALT };

struct picc {
    uint8_t uid[10];
    uint8_t uid_len;       /* 4, 7 or 10 */
    uint8_t sak;           /* the final SAK: 0x00 NTAG21x, 0x08 MIFARE Classic 1K */
    uint8_t state;
    uint8_t level;         /* in READY: the cascade level being resolved (0-2) */
    uint8_t from_halt;     /* READY* / ACTIVE*: an error sends it back to HALT, not IDLE */
    uint8_t deaf;          /* out of reach for this exchange: a read miss */
    uint64_t powered_at;   /* ns; it answers PICC_STARTUP_NS after */
};

void picc_init(struct picc *p, const uint8_t *uid, uint8_t uid_len);
void picc_power(struct picc *p, int on, uint64_t now);
/* The 40 bits of cascade level `level`: 4 UID bytes (or 0x88 + 3) and BCC. */
void picc_level(const struct picc *p, uint8_t level, uint8_t out[5]);
/* The frame the reader sent, received at `now`; returns 1 and fills `answer` if the tag answers. */
int picc_receive(struct picc *p, const struct bits *frame, uint64_t now, struct bits *answer);

#endif
