/* The transmit queue: frames wait here for the serial port, and the firmware
 * never blocks on it. A frame that does not fit whole is dropped and counted
 * (the host sees the SEQ gap and asks a SNAP), so a host that stops reading
 * cannot stall the scan loop. */
#ifndef BELOTE_TXQ_H
#define BELOTE_TXQ_H

#include <stddef.h>
#include <stdint.h>

#ifndef TXQ_SIZE
#define TXQ_SIZE 1024   /* five full lines; a power of two (a board with more RAM may pass -DTXQ_SIZE=4096) */
#endif

struct txq {
    uint8_t buf[TXQ_SIZE];
    uint32_t head, tail;   /* free-running: used = head - tail */
    uint32_t dropped;
};

void txq_init(struct txq *q);
/* Queue a whole line or nothing; returns 1 if queued, 0 if dropped. */
int txq_put(struct txq *q, const char *line, size_t n);
/* The oldest queued bytes that lie contiguous in the buffer; then consume what was written. */
size_t txq_peek(const struct txq *q, const uint8_t **data);
void txq_consume(struct txq *q, size_t n);
size_t txq_used(const struct txq *q);

#endif
