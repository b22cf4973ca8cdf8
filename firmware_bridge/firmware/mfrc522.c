/* The MFRC522 driver; see mfrc522.h. Register names and bits: mfrc522_regs.h.
 * Bit order on the air is least significant bit first (ISO 14443-3), so "bit
 * i" of a UID level is bit (i % 8) of byte (i / 8), and a partial last byte
 * sends its low bits (TxLastBits). */
#include "mfrc522.h"

#include <string.h>

#include "crc_a.h"
#include "mfrc522_port.h"
#include "mfrc522_regs.h"

/* -- registers over SPI (datasheet 8.1.2.3: address byte, then data) -------- */

static void write_reg(const struct mfrc522 *r, uint8_t reg, uint8_t value)
{
    port_select(r->chip);
    port_transfer((uint8_t)(reg << 1));
    port_transfer(value);
    port_deselect(r->chip);
}

static uint8_t read_reg(const struct mfrc522 *r, uint8_t reg)
{
    port_select(r->chip);
    port_transfer((uint8_t)(0x80 | (reg << 1)));
    uint8_t value = port_transfer(0x00);
    port_deselect(r->chip);
    return value;
}

static void write_fifo(const struct mfrc522 *r, const uint8_t *data, uint8_t n)
{
    port_select(r->chip);
    port_transfer((uint8_t)(FIFODataReg << 1));   /* every next byte goes to the same register */
    for (uint8_t i = 0; i < n; i++)
        port_transfer(data[i]);
    port_deselect(r->chip);
}

/* A read burst: each byte sent is the next address, each byte received the
 * value at the previous one; a final 0x00 clocks out the last value. */
static void read_fifo(const struct mfrc522 *r, uint8_t *data, uint8_t n)
{
    const uint8_t address = (uint8_t)(0x80 | (FIFODataReg << 1));
    port_select(r->chip);
    port_transfer(address);
    for (uint8_t i = 0; i < n; i++)
        data[i] = port_transfer(i + 1 < n ? address : 0x00);
    port_deselect(r->chip);
}

/* A floating or dead MISO line reads 0x00 or 0xFF; a chip reads its version. */
static int chip_answers(struct mfrc522 *r)
{
    uint8_t version = read_reg(r, VersionReg);
    return version != 0x00 && version != 0xFF;
}

/* -- one frame out, maybe one back ---------------------------------------- */

enum xfer_status { XFER_OK, XFER_TIMEOUT, XFER_COLLISION, XFER_RF_ERROR, XFER_CHIP_ERROR };

struct xfer {
    const uint8_t *tx;
    uint8_t tx_len, tx_last_bits;   /* tx_last_bits: valid bits of the last byte, 0 = all 8 */
    uint8_t *rx;
    uint8_t rx_max;
    uint8_t rx_len, rx_bits;        /* out: bytes received, and the total of valid bits */
    uint8_t coll_pos;               /* out, on XFER_COLLISION: 1-based index of the first collided bit */
};

/* Runs Transceive (or Transmit, when nothing comes back) to its end. RxAlign
 * stays 0: the first received bit lands in bit 0 of the FIFO's first byte,
 * so a received bit's FIFO position and its rank in the frame (what CollPos
 * counts) are the same number, whatever the partial byte we sent. */
static enum xfer_status exchange(struct mfrc522 *r, struct xfer *x, uint8_t command)
{
    write_reg(r, CommandReg, CMD_IDLE);             /* stop whatever ran */
    write_reg(r, ComIrqReg, COM_IRQ_ALL);           /* SET1 = 0: clear every request bit */
    write_reg(r, FIFOLevelReg, FIFO_FLUSH);
    write_fifo(r, x->tx, x->tx_len);
    write_reg(r, CommandReg, command);
    uint8_t receive = command == CMD_TRANSCEIVE;
    write_reg(r, BitFramingReg, (uint8_t)(x->tx_last_bits | (receive ? START_SEND : 0)));
    uint8_t done = receive ? COM_IRQ_RX : COM_IRQ_IDLE;
    uint16_t error_since = 0;
    for (uint16_t waited = 0;; waited += MFRC522_POLL_US) {
        uint8_t irq = read_reg(r, ComIrqReg);
        if (irq & done)
            break;
        if (receive && (irq & COM_IRQ_TIMER))
            return XFER_TIMEOUT;                    /* nobody answered in MFRC522_TIMEOUT_US */
        if (irq & COM_IRQ_ERR) {                    /* the frame may still be coming: give it 1 ms */
            if (!error_since)
                error_since = waited + 1;
            else if (waited + 1 - error_since >= 1000)
                return XFER_RF_ERROR;
        }
        if (waited >= MFRC522_GUARD_US)
            return XFER_CHIP_ERROR;
        port_pause_us(MFRC522_POLL_US);
    }
    if (!receive)
        return XFER_OK;
    uint8_t error = read_reg(r, ErrorReg);
    enum xfer_status status = XFER_OK;
    if (error & ERR_COLL) {
        uint8_t coll = read_reg(r, CollReg);
        if (coll & COLL_POS_NOT_VALID)
            return XFER_RF_ERROR;
        x->coll_pos = (uint8_t)(coll & 0x1F) ? (uint8_t)(coll & 0x1F) : 32;   /* 0 means the 32nd bit */
        status = XFER_COLLISION;
    } else if (error & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL | ERR_CRC)) {
        return XFER_RF_ERROR;                       /* a garbled answer: a miss this time */
    }
    uint8_t n = read_reg(r, FIFOLevelReg) & 0x7F;
    if (n == 0 || n > x->rx_max)
        return XFER_RF_ERROR;
    read_fifo(r, x->rx, n);
    uint8_t last = read_reg(r, ControlReg) & 0x07;  /* RxLastBits: 0 means a whole last byte */
    x->rx_len = n;
    x->rx_bits = (uint8_t)((n - 1) * 8 + (last ? last : 8));
    return status;
}

static enum xfer_status transceive(struct mfrc522 *r, const uint8_t *tx, uint8_t tx_len, uint8_t tx_last_bits,
                                   uint8_t *rx, uint8_t rx_max, struct xfer *x)
{
    memset(x, 0, sizeof *x);
    x->tx = tx;
    x->tx_len = tx_len;
    x->tx_last_bits = tx_last_bits;
    x->rx = rx;
    x->rx_max = rx_max;
    return exchange(r, x, CMD_TRANSCEIVE);
}

/* -- reader_ops -------------------------------------------------------------- */

static int op_init(void *ctx)
{
    struct mfrc522 *r = ctx;
    write_reg(r, CommandReg, CMD_SOFT_RESET);
    /* the oscillator restarts (about 40 us); PowerDown reads 1 until it has */
    uint8_t waited = 0;
    while (read_reg(r, CommandReg) & POWER_DOWN) {
        if (++waited > 10)
            return -1;
        port_pause_us(100);
    }
    write_reg(r, TxModeReg, 0x00);                  /* 106 kbit/s, no CRC: the driver adds CRC_A itself */
    write_reg(r, RxModeReg, 0x00);
    write_reg(r, CollReg, 0x00);                    /* ValuesAfterColl = 0: bits after a collision read 0 */
    /* timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 25 us a tick, started by the end of each frame */
    write_reg(r, TModeReg, TAUTO);
    write_reg(r, TPrescalerReg, 169);
    uint16_t ticks = MFRC522_TIMEOUT_US / 25 - 1;
    write_reg(r, TReloadRegH, (uint8_t)(ticks >> 8));
    write_reg(r, TReloadRegL, (uint8_t)ticks);
    write_reg(r, TxASKReg, FORCE_100_ASK);          /* type A: 100 % ASK modulation */
    write_reg(r, RFCfgReg, (uint8_t)(r->rx_gain & RX_GAIN_MASK));
    write_reg(r, TxControlReg, (uint8_t)(read_reg(r, TxControlReg) | ANTENNA_ON));
    port_pause_us(MFRC522_FIELD_MS * 1000);         /* tags in the field power up */
    r->version = read_reg(r, VersionReg);
    return r->version != 0x00 && r->version != 0xFF ? 1 : -1;
}

/* Off returns at once (scan.c leaves it off while the other antennas are
 * scanned); on waits until the tags can answer. */
static int op_field(void *ctx, int on)
{
    struct mfrc522 *r = ctx;
    uint8_t tx = read_reg(r, TxControlReg);
    write_reg(r, TxControlReg, (uint8_t)(on ? tx | ANTENNA_ON : tx & ~ANTENNA_ON));
    if (on)
        port_pause_us(MFRC522_FIELD_MS * 1000);
    return chip_answers(r) ? 1 : -1;
}

/* REQA / WUPA: a 7-bit short frame; any answer (even ATQAs colliding, as
 * tags of different UID sizes do) means at least one tag is there. */
static int request(struct mfrc522 *r, uint8_t command)
{
    uint8_t atqa[2];
    struct xfer x;
    switch (transceive(r, &command, 1, 7, atqa, sizeof atqa, &x)) {
    case XFER_OK:
    case XFER_COLLISION:
    case XFER_RF_ERROR:
        return 1;
    case XFER_TIMEOUT:
        return 0;
    default:
        return -1;
    }
}

static int op_wupa(void *ctx)
{
    struct mfrc522 *r = ctx;
    if (!chip_answers(r))
        return -1;
    return request(r, PICC_WUPA);
}

static int op_reqa(void *ctx) { return request(ctx, PICC_REQA); }

/* Bit-oriented anticollision at one cascade level (ISO 14443-3, 6.5.3): send
 * SEL, NVB and the bits known so far; the tags that match answer the rest. At
 * a collision, keep the bits before it, choose 1 for the collided bit (the
 * tags with a 0 there drop out), and ask again. Fills level[] = 4 UID bytes
 * (or the cascade tag and 3) + BCC. Returns 1, 2 (found after a collision),
 * 0 (gone, or no clean answer) or -1. */
static int anticollision(struct mfrc522 *r, uint8_t sel, uint8_t level[5])
{
    uint8_t known = 0, collided = 0;
    memset(level, 0, 5);
    while (known < 40) {
        uint8_t frame[7], answer[5];
        uint8_t whole = known / 8, part = known % 8, bytes = (uint8_t)(whole + (part ? 1 : 0));
        frame[0] = sel;
        frame[1] = (uint8_t)(((2 + whole) << 4) | part);   /* NVB: bytes (with SEL, NVB) and bits sent */
        memcpy(frame + 2, level, bytes);
        struct xfer x;
        enum xfer_status status = transceive(r, frame, (uint8_t)(2 + bytes), part, answer, sizeof answer, &x);
        if (status == XFER_CHIP_ERROR)
            return -1;
        if (status == XFER_TIMEOUT || status == XFER_RF_ERROR)
            return 0;
        uint8_t valid = status == XFER_COLLISION ? (uint8_t)(x.coll_pos - 1) : x.rx_bits;
        if (known + valid > 40 || (status == XFER_OK && known + valid != 40))
            return 0;                                       /* not the answer this frame asks for */
        for (uint8_t i = 0; i < valid; i++, known++)
            if (answer[i / 8] & (1u << (i % 8)))
                level[known / 8] |= (uint8_t)(1u << (known % 8));
        if (status == XFER_COLLISION) {
            if (known >= 32)
                return 0;                                   /* the BCC cannot collide alone */
            level[known / 8] |= (uint8_t)(1u << (known % 8));
            known++;
            collided = 1;
        }
    }
    if ((level[0] ^ level[1] ^ level[2] ^ level[3]) != level[4])
        return 0;
    return collided ? 2 : 1;
}

/* SELECT the level found by anticollision; the SAK says whether the UID goes on. */
static int select_level(struct mfrc522 *r, uint8_t sel, const uint8_t level[5], uint8_t *sak)
{
    uint8_t frame[9], answer[3];
    frame[0] = sel;
    frame[1] = NVB_SELECT;
    memcpy(frame + 2, level, 5);
    uint16_t crc = crc_a(frame, 7);
    frame[7] = (uint8_t)crc;
    frame[8] = (uint8_t)(crc >> 8);
    struct xfer x;
    enum xfer_status status = transceive(r, frame, sizeof frame, 0, answer, sizeof answer, &x);
    if (status == XFER_CHIP_ERROR)
        return -1;
    if (status != XFER_OK || x.rx_bits != 24)
        return 0;
    crc = crc_a(answer, 1);
    if (answer[1] != (uint8_t)crc || answer[2] != (uint8_t)(crc >> 8))
        return 0;
    *sak = answer[0];
    return 1;
}

static int op_select(void *ctx, uint8_t *uid, uint8_t *uid_len)
{
    static const uint8_t SEL[3] = {PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3};
    struct mfrc522 *r = ctx;
    uint8_t n = 0, crowded = 0;
    for (uint8_t cl = 0; cl < 3; cl++) {
        uint8_t level[5], sak = 0;
        int found = anticollision(r, SEL[cl], level);
        if (found <= 0)
            return found;
        crowded |= found == 2;
        int selected = select_level(r, SEL[cl], level, &sak);
        if (selected <= 0)
            return selected;
        if (!(sak & SAK_CASCADE)) {
            memcpy(uid + n, level, 4);
            *uid_len = (uint8_t)(n + 4);
            return crowded ? 2 : 1;
        }
        if (level[0] != PICC_CASCADE_TAG)
            return 0;                                       /* a SAK that contradicts the UID */
        memcpy(uid + n, level + 1, 3);
        n = (uint8_t)(n + 3);
    }
    return 0;                                               /* a fourth level does not exist */
}

static int op_halt(void *ctx)
{
    struct mfrc522 *r = ctx;
    uint8_t frame[4] = {PICC_HLTA, 0x00, 0, 0};
    uint16_t crc = crc_a(frame, 2);
    frame[2] = (uint8_t)crc;
    frame[3] = (uint8_t)(crc >> 8);
    struct xfer x;
    memset(&x, 0, sizeof x);
    x.tx = frame;
    x.tx_len = sizeof frame;
    return exchange(r, &x, CMD_TRANSMIT) == XFER_OK ? 1 : -1;
}

const struct reader_ops MFRC522_OPS = {op_init, op_field, op_wupa, op_reqa, op_select, op_halt};
