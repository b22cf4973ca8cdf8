/* The MFRC522 register model; see mfrc522_model.h. Numbers from the NXP
 * MFRC522 datasheet (rev. 3.9) and ISO/IEC 14443-2/-3 (106 kbit/s type A). */
#include "mfrc522_model.h"

#include <string.h>

#include "../mfrc522_regs.h"

#define FC_HZ 13560000.0
#define ETU_NS (128.0 / FC_HZ * 1e9)   /* one bit at 106 kbit/s: 9.44 us */
#define OSCILLATOR_START_NS 40000ull   /* after a soft reset or NRSTPD rising: 37.74 us */

static const uint8_t RESET_VALUES[64] = {
    [CommandReg] = 0x20, [ComIEnReg] = 0x80, [ComIrqReg] = 0x14, [Status1Reg] = 0x21,
    [WaterLevelReg] = 0x08, [ControlReg] = 0x10, [CollReg] = 0xA0, [ModeReg] = 0x3F,
    [TxControlReg] = 0x80, [0x16] = 0x10, [0x17] = 0x84, [0x18] = 0x84, [0x19] = 0x4D,
    [0x1C] = 0x62, [0x1F] = 0xEB, [0x21] = 0xFF, [0x22] = 0xFF, [0x24] = 0x26,
    [RFCfgReg] = 0x48, [0x27] = 0x88, [0x28] = 0x20, [0x29] = 0x20, [VersionReg] = 0x92,
};

static double random01(struct mfrc522_model *m)
{
    m->rng ^= m->rng << 13;   /* xorshift64: reproducible runs for a given seed */
    m->rng ^= m->rng >> 7;
    m->rng ^= m->rng << 17;
    return (double)(m->rng >> 11) / 9007199254740992.0;
}

static void set_field(struct mfrc522_model *m, int on, uint64_t now)
{
    on = on && m->powered;
    if (on == m->field)
        return;
    m->field = on;
    for (int i = 0; i < m->ntags; i++)
        picc_power(&m->tags[i], on, now);
}

static void reset_registers(struct mfrc522_model *m, uint64_t now)
{
    memcpy(m->reg, RESET_VALUES, sizeof m->reg);
    m->fifo_len = 0;
    m->command = CMD_IDLE;
    m->started = 0;
    m->reset_until = now + OSCILLATOR_START_NS;
    set_field(m, 0, now);
}

void mfrc522_model_init(struct mfrc522_model *m, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
    m->powered = 1;
    reset_registers(m, 0);
}

/* -- the RF exchange ---------------------------------------------------------- */

/* Frame duration on the air: start bit, the bits, a parity bit per whole byte, end. */
static uint64_t air_ns(unsigned bits)
{
    unsigned parity = bits >= 8 ? bits / 8 : 0;
    return (uint64_t)((2 + bits + parity) * ETU_NS);
}

static uint64_t timer_ns(const struct mfrc522_model *m)
{
    unsigned prescaler = (unsigned)((m->reg[TModeReg] & 0x0F) << 8) | m->reg[TPrescalerReg];
    unsigned reload = (unsigned)(m->reg[TReloadRegH] << 8) | m->reg[TReloadRegL];
    return (uint64_t)((2.0 * prescaler + 1) * (reload + 1) / FC_HZ * 1e9);
}

/* Every tag in the field hears the frame; their answers are overlaid. A bit
 * where some sent 0 and others 1 is a collision: the first one is reported,
 * and with ValuesAfterColl = 0 every bit after it reads 0. */
static void transmit(struct mfrc522_model *m, uint64_t now)
{
    struct bits frame;
    uint8_t last_bits = m->reg[BitFramingReg] & 0x07;
    unsigned nbits = m->fifo_len * 8u - (last_bits ? 8u - last_bits : 0u);
    bits_from_bytes(&frame, m->fifo, nbits > 8 * BITS_MAX_BYTES ? 8 * BITS_MAX_BYTES : nbits);
    m->fifo_len = 0;
    m->frames++;
    m->started = 1;
    m->tx_done = m->rx_done = m->answered = 0;
    m->tx_end = now + air_ns(nbits);
    m->timer_at = m->reg[TModeReg] & TAUTO ? m->tx_end + timer_ns(m) : UINT64_MAX;
    int request = nbits == 7;
    if (request)
        m->requests++;
    else if (nbits >= 16 && frame.data[1] == NVB_SELECT)
        m->selects++;
    if (!m->field || m->command != CMD_TRANSCEIVE) {
        for (int i = 0; i < m->ntags && m->field; i++) {   /* Transmit: tags hear, nobody listens */
            struct bits ignored;
            picc_receive(&m->tags[i], &frame, m->tx_end, &ignored);
        }
        return;
    }
    struct bits one[MODEL_TAGS];
    int n = 0;
    for (int i = 0; i < m->ntags; i++) {
        struct picc *p = &m->tags[i];
        if (request)
            p->deaf = random01(m) < m->miss_rate;
        if (!p->deaf && picc_receive(p, &frame, m->tx_end, &one[n]))
            n++;
    }
    if (!n)
        return;
    struct bits rx;
    memset(&rx, 0, sizeof rx);
    int coll = -1;
    for (int k = 0; k < n; k++)
        if (one[k].n > rx.n)
            rx.n = one[k].n;
    for (unsigned i = 0; i < rx.n; i++) {
        int ones = 0, zeros = 0;
        for (int k = 0; k < n; k++)
            if (i < one[k].n)
                bit_at(&one[k], i) ? ones++ : zeros++;
        if (ones && zeros && coll < 0)
            coll = (int)i;
        int value = ones > 0;
        if (coll >= 0 && (int)i > coll && !(m->reg[CollReg] & VALUES_AFTER_COLL))
            value = 0;
        bit_put(&rx, i, value);
    }
    m->rx = rx;
    m->rx_error = coll >= 0 ? ERR_COLL : 0;
    m->rx_coll = (uint8_t)(m->reg[CollReg] & VALUES_AFTER_COLL);
    m->rx_coll |= coll >= 0 ? (uint8_t)((coll + 1) & 0x1F) : COLL_POS_NOT_VALID;
    /* frame delay time: (n * 128 + 84) / fc after a last bit 1, (n * 128 + 20) / fc after a 0, n = 9 */
    double fdt = (9 * 128 + (bit_at(&frame, nbits - 1) ? 84 : 20)) / FC_HZ * 1e9;
    m->rx_end = m->tx_end + (uint64_t)fdt + air_ns(rx.n);
    m->answered = 1;
}

/* The receiver got the whole answer: FIFO (from bit RxAlign of its first byte), flags. */
static void receive(struct mfrc522_model *m)
{
    unsigned align = (m->reg[BitFramingReg] >> 4) & 0x07;
    unsigned total = align + m->rx.n;
    memset(m->fifo, 0, sizeof m->fifo);
    for (unsigned i = 0; i < m->rx.n; i++)
        if (bit_at(&m->rx, i))
            m->fifo[(align + i) / 8] |= (uint8_t)(1u << ((align + i) % 8));
    m->fifo_len = (uint8_t)((total + 7) / 8);
    m->reg[ControlReg] = (uint8_t)((m->reg[ControlReg] & ~0x07) | (total % 8));
    m->reg[ErrorReg] = m->rx_error;
    m->reg[CollReg] = m->rx_coll;
    m->reg[ComIrqReg] |= COM_IRQ_RX | (m->rx_error ? COM_IRQ_ERR : 0);
}

/* Everything due by `now`. */
static void settle(struct mfrc522_model *m, uint64_t now)
{
    if (!m->started)
        return;
    if (!m->tx_done && now >= m->tx_end) {
        m->tx_done = 1;
        m->reg[ComIrqReg] |= COM_IRQ_TX;
        if (m->command == CMD_TRANSMIT) {
            m->reg[ComIrqReg] |= COM_IRQ_IDLE;
            m->command = CMD_IDLE;
            m->started = 0;
            return;
        }
    }
    if (m->answered && !m->rx_done && now >= m->rx_end) {
        m->rx_done = 1;
        receive(m);
    }
    if (!m->answered && now >= m->timer_at) {
        m->reg[ComIrqReg] |= COM_IRQ_TIMER;
        m->timer_at = UINT64_MAX;
    }
}

/* -- registers ------------------------------------------------------------- */

static uint8_t read_register(struct mfrc522_model *m, uint8_t reg, uint64_t now)
{
    switch (reg) {
    case CommandReg:
        return (uint8_t)((m->reg[CommandReg] & 0x20) | (now < m->reset_until ? POWER_DOWN : 0) | m->command);
    case FIFODataReg: {
        if (!m->fifo_len)
            return 0;
        uint8_t v = m->fifo[0];
        memmove(m->fifo, m->fifo + 1, --m->fifo_len);
        return v;
    }
    case FIFOLevelReg:
        return m->fifo_len;
    default:
        return m->reg[reg & 0x3F];
    }
}

static void write_register(struct mfrc522_model *m, uint8_t reg, uint8_t v, uint64_t now)
{
    switch (reg) {
    case CommandReg:
        m->reg[CommandReg] = (uint8_t)(v & 0x30);
        m->started = 0;   /* any command write stops the one in flight */
        switch (v & COMMAND_MASK) {
        case CMD_SOFT_RESET:
            m->soft_resets++;
            reset_registers(m, now);
            return;
        case CMD_IDLE:
        case CMD_TRANSCEIVE:   /* waits for StartSend */
            m->command = v & COMMAND_MASK;
            return;
        case CMD_TRANSMIT:
            m->command = CMD_TRANSMIT;
            transmit(m, now);
            return;
        default:
            m->unsupported++;
            m->command = CMD_IDLE;
            return;
        }
    case ComIrqReg:
    case 0x05:   /* DivIrqReg: the same set/clear convention */
        if (v & COM_IRQ_SET1)
            m->reg[reg] |= (uint8_t)(v & 0x7F);
        else
            m->reg[reg] &= (uint8_t)~(v & 0x7F);
        return;
    case FIFODataReg:
        if (m->fifo_len < FIFO_SIZE)
            m->fifo[m->fifo_len++] = v;
        else
            m->reg[ErrorReg] |= ERR_BUFFER_OVFL;
        return;
    case FIFOLevelReg:
        if (v & FIFO_FLUSH) {
            m->fifo_len = 0;
            m->reg[ErrorReg] &= (uint8_t)~ERR_BUFFER_OVFL;
        }
        return;
    case BitFramingReg:
        m->reg[BitFramingReg] = v & 0x7F;   /* StartSend acts on the write, it is not kept */
        if ((v & START_SEND) && m->command == CMD_TRANSCEIVE)
            transmit(m, now);
        return;
    case TxControlReg:
        m->reg[TxControlReg] = v;
        set_field(m, (v & ANTENNA_ON) != 0, now);
        return;
    case RFCfgReg:
        m->gain_writes++;
        m->reg[RFCfgReg] = v;
        return;
    case ErrorReg:
    case VersionReg:
        return;   /* read-only */
    default:
        m->reg[reg & 0x3F] = v;
    }
}

/* -- the bus ---------------------------------------------------------------- */

void mfrc522_model_nss(struct mfrc522_model *m, int low, uint64_t now)
{
    settle(m, now);
    m->selected = (uint8_t)low;
    m->first_byte = (uint8_t)low;
}

uint8_t mfrc522_model_spi(struct mfrc522_model *m, uint8_t mosi, uint64_t now)
{
    if (m->dead || !m->powered || !m->selected)
        return 0xFF;   /* nobody drives MISO: the line floats high */
    settle(m, now);
    uint8_t out = m->miso;
    m->miso = 0;
    uint8_t reg = (mosi >> 1) & 0x3F;
    if (m->first_byte) {
        m->first_byte = 0;
        m->reading = (mosi & 0x80) != 0;
        m->address = reg;
        if (m->reading)
            m->miso = read_register(m, reg, now);
        return 0x00;
    }
    if (m->reading)
        m->miso = reg ? read_register(m, reg, now) : 0;   /* the closing 0x00 reads nothing */
    else
        write_register(m, m->address, mosi, now);
    return out;
}

void mfrc522_model_nrstpd(struct mfrc522_model *m, int high, uint64_t now)
{
    if (high && !m->powered) {
        m->powered = 1;
        reset_registers(m, now);   /* a hard reset, the same registers as a soft one */
    } else if (!high && m->powered) {
        set_field(m, 0, now);
        m->powered = 0;
    }
}

int mfrc522_model_place(struct mfrc522_model *m, const uint8_t *uid, uint8_t uid_len, uint64_t now)
{
    if (m->ntags >= MODEL_TAGS)
        return 0;
    struct picc *p = &m->tags[m->ntags++];
    picc_init(p, uid, uid_len);
    picc_power(p, m->field, now);
    return 1;
}

int mfrc522_model_take(struct mfrc522_model *m, const uint8_t *uid, uint8_t uid_len)
{
    for (int i = 0; i < m->ntags; i++) {
        if (m->tags[i].uid_len == uid_len && memcmp(m->tags[i].uid, uid, uid_len) == 0) {
            memmove(&m->tags[i], &m->tags[i + 1], (size_t)(m->ntags - i - 1) * sizeof m->tags[0]);
            m->ntags--;
            return 1;
        }
    }
    return 0;
}
