/* The firmware's core, free of any board: scan the antennas in turn, debounce,
 * emit TAG edges, answer the host's commands, beat HB, send SNAP periodically.
 * A board layer (avr/main.c) only supplies the clock, the serial port and
 * one reader per antenna; the host tests drive this same code with simulated
 * readers (test_firmware.c, table_sim.c). */
#ifndef BELOTE_TABLE_H
#define BELOTE_TABLE_H

#include "scan.h"
#include "txq.h"
#include "wire.h"

#ifndef MAX_ANTENNAS
#define MAX_ANTENNAS 16         /* a board passes its own count (the Mega: 9) to size its RAM */
#endif
#define FW_VERSION "1.0.0"
#define REINIT_ERR_EVERY_MS 1000   /* a failing reader's ERR at most this often: nine dead readers
                                    * must not flood the link and starve the HELLO (HB counts all) */

struct table_config {
    uint8_t ants;
    uint8_t on_scans, off_scans;
    uint32_t hb_ms, snap_ms;
};

struct table {
    struct table_config cfg;
    struct antenna antennas[MAX_ANTENNAS];
    const struct reader_ops *ops;
    void **readers;             /* one reader context per antenna */
    struct txq *tx;
    uint32_t boot_id;
    uint16_t seq;
    uint32_t now, next_hb, next_snap;
    uint8_t next_antenna;
    uint32_t sweeps;            /* full rounds of every antenna since boot */
    uint32_t reinit_quiet_until[MAX_ANTENNAS];   /* no ERR reader-reinit for this antenna before then */
    uint8_t snap_asked;
    uint8_t reset_asked;        /* the board layer restarts the board when it sees this */
    uint32_t rx_bad;
    char rx[WIRE_MAX_LINE + 2];
    size_t rx_len;
    uint8_t rx_skip;            /* inside an overlong line: drop to its newline */
};

void table_init(struct table *t, const struct table_config *cfg, const struct reader_ops *ops,
                void **readers, struct txq *tx, uint32_t boot_id, uint32_t now_ms);
/* One step: scan the next antenna, then the timers. Call it in loop(). */
void table_poll(struct table *t, uint32_t now_ms);
/* Bytes from the host (commands). */
void table_rx(struct table *t, const uint8_t *data, size_t n, uint32_t now_ms);

#endif
