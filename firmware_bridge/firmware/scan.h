/* Scanning the readers: the wake-up-command pattern, presence debounce, and
 * reader health. Hardware-free: a reader is a table of function pointers
 * (struct reader_ops), so the same logic runs on the board (MFRC522/PN532
 * drivers) and in the host's unit tests (a simulated field of tags).
 *
 * The debounce is the algorithm of firmware_bridge/debounce.py, kept equal by
 * debounce_vectors.txt: a tag counts as present after on_scans consecutive
 * scans that read it, as gone after off_scans consecutive scans that miss it.
 */
#ifndef BELOTE_SCAN_H
#define BELOTE_SCAN_H

#include <stdint.h>

#define UID_MAX_BYTES 10
#define UID_HEX_LEN (2 * UID_MAX_BYTES + 1)
#define TAGS_PER_ANTENNA 8       /* tracked per antenna; a bigger pile is best-effort */
#ifndef READS_PER_SCAN
#define READS_PER_SCAN 4         /* tags one scan tries to read on one antenna (the Mega reads 8) */
#endif
#define REINIT_AFTER_ERRORS 3    /* consecutive failed scans before a reader is re-initialised */

typedef char uid_hex[UID_HEX_LEN];   /* upper-case hex, most significant byte first */

/* One reader chip behind its chip select. Each call returns 1 on success, 0 for
 * "no tag answered", -1 for a bus or chip error; select returns 2 when it had
 * to resolve a collision (several tags answered). */
struct reader_ops {
    int (*init)(void *ctx);
    int (*field)(void *ctx, int on);                 /* RF field off, or on (and tags given time to power up) */
    int (*wupa)(void *ctx);                          /* wake-up: IDLE and HALT tags answer */
    int (*reqa)(void *ctx);                          /* request: IDLE tags only */
    int (*select)(void *ctx, uint8_t *uid, uint8_t *uid_len);   /* anticollision + select */
    int (*halt)(void *ctx);                          /* the selected tag goes to HALT */
};

struct track {
    uid_hex uid;
    uint8_t present, hits, misses;
};

struct antenna {
    struct track tracks[TAGS_PER_ANTENNA];
    uint8_t count;
    /* health */
    uint8_t consecutive_errors;
    uint8_t field_off;          /* 1: a pile: its field was switched off after the last scan */
    uint32_t errors, reinits;
};

struct edge {
    uid_hex uid;
    uint8_t on;
};

void uid_to_hex(const uint8_t *uid, uint8_t len, char *out);

/* One scan of one antenna's reads (n uids); writes the completed edges, returns how many. */
int debounce_scan(struct antenna *a, uid_hex *reads, int n, int on_scans, int off_scans,
                  struct edge *edges, int max_edges);

/* Tags present (debounced) on an antenna, in first-seen order; returns how many. */
int antenna_present(const struct antenna *a, const char **uids, int max);

/* Read what lies on one antenna now, one tag per select + HALT, up to
 * READS_PER_SCAN. A lone tag is left in HALT and woken by WUPA next time. A
 * pile cannot be read that way: ISO 14443-3 sends a tag woken from HALT that
 * loses the anticollision back to HALT, where it ignores the REQA that asks
 * for the next tag. So after a scan that met several tags the field is
 * switched off (while the other antennas are scanned every tag in it loses
 * power and forgets HALT), and the next scan switches it on and reads the
 * whole pile with REQA. Re-initialises the reader after REINIT_AFTER_ERRORS
 * failed scans. Returns the number of reads, or -1 when the scan failed (the
 * debounce is then not fed: no read is no news). */
int scan_antenna(struct antenna *a, const struct reader_ops *ops, void *ctx, uid_hex *reads);

#endif
