/* The MFRC522 at register level, as the simulated board's SPI bus sees it:
 * the SPI framing (address byte, read bursts), the registers the driver uses,
 * the 64-byte FIFO, the commands Idle, Transmit, Transceive and SoftReset,
 * the timer (TAuto, prescaler, reload), the antenna drivers, the NRSTPD pin,
 * and the RF exchange with the tags in its field (picc.c): frame durations
 * at 106 kbit/s, the frame delay time, answers overlaid bit by bit with the
 * first collision reported in ErrorReg/CollReg as the datasheet describes.
 *
 * Time is given by the caller (ns); the model settles what happened up to
 * that time whenever the bus touches it. Faults on demand: a read miss rate
 * (each tag, at each REQA/WUPA, stays deaf for that exchange with this
 * probability) and a dead chip (it stops answering on SPI: MISO reads 0xFF).
 * Commands the driver does not use (CalcCRC, MFAuthent...) are counted in
 * `unsupported`, so a test notices a driver that starts relying on one. */
#ifndef BELOTE_SIM_MFRC522_MODEL_H
#define BELOTE_SIM_MFRC522_MODEL_H

#include <stdint.h>

#include "bits.h"
#include "picc.h"

#define MODEL_TAGS 16           /* tags one antenna's field can hold */

struct mfrc522_model {
    uint8_t reg[64];
    uint8_t fifo[64], fifo_len;
    /* SPI */
    uint8_t selected, first_byte, reading, address, miso;
    /* the command in flight */
    uint8_t command, started, tx_done, rx_done, answered;
    uint64_t tx_end, rx_end, timer_at;
    struct bits rx;             /* what the receiver will have got */
    uint8_t rx_error, rx_coll;  /* ErrorReg bits and CollReg to show at rx_end */
    uint64_t reset_until;       /* PowerDown reads 1 until then (oscillator start) */
    int field;                  /* antenna drivers on */
    int powered;                /* NRSTPD high */
    struct picc tags[MODEL_TAGS];
    int ntags;
    /* faults */
    double miss_rate;
    int dead;
    uint64_t rng;
    /* what happened, for tests and the benchmark */
    uint32_t frames, requests, selects, soft_resets, unsupported, gain_writes;
};

void mfrc522_model_init(struct mfrc522_model *m, uint64_t seed);
void mfrc522_model_nss(struct mfrc522_model *m, int low, uint64_t now);
uint8_t mfrc522_model_spi(struct mfrc522_model *m, uint8_t mosi, uint64_t now);
void mfrc522_model_nrstpd(struct mfrc522_model *m, int high, uint64_t now);

/* Tags in this reader's field. */
int mfrc522_model_place(struct mfrc522_model *m, const uint8_t *uid, uint8_t uid_len, uint64_t now);
int mfrc522_model_take(struct mfrc522_model *m, const uint8_t *uid, uint8_t uid_len);

#endif
