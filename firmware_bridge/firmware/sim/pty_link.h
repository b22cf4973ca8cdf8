/* The board's USB serial port as the host sees it: a pseudo-terminal whose
 * slave side is reached through a stable symlink (like /dev/serial/by-id/),
 * raw like a CDC port. It also plays what the cable and the USB bridge do to
 * the bytes: lines lost or damaged on the way (drop, corrupt), unplugging
 * (the host reads EIO, the link disappears) and stale output that a Mega's
 * USB bridge replays when the port is opened (stale). */
#ifndef BELOTE_SIM_PTY_LINK_H
#define BELOTE_SIM_PTY_LINK_H

#include <stddef.h>
#include <stdint.h>

#define PTY_OUT_MAX 65536   /* bytes the host has not read yet; more are lost, as in a full USB buffer */

struct pty_link {
    char path[240];
    int master, slave;                /* -1 while unplugged */
    int drop, corrupt;                /* lines still to lose / to damage */
    int dropping, line_pos;           /* inside a dropped line; byte index in the current line */
    uint8_t out[PTY_OUT_MAX];
    size_t out_len;
    uint8_t stale[512];
    size_t stale_len;
    int stale_armed;
    uint64_t lost_bytes, lines_dropped, lines_corrupted;
};

int pty_link_plug(struct pty_link *l);     /* 0, or -1 with errno */
void pty_link_unplug(struct pty_link *l);
void pty_link_from_device(struct pty_link *l, uint8_t byte);
void pty_link_flush(struct pty_link *l);
/* Bytes the host wrote; returns how many (0 when none or unplugged). Sets
 * *stale_fired when an armed stale replay just happened: the caller resets the board. */
size_t pty_link_from_host(struct pty_link *l, uint8_t *buf, size_t max, int *stale_fired);

#endif
