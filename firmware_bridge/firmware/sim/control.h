/* The simulator's control socket: a Unix stream socket, one client at a time
 * (the Python AvrTable), one command per line (scenario.h), each answered
 * with one line once applied ("ok ..." or "error: ..."), so the client knows
 * the board has seen it before it goes on. */
#ifndef BELOTE_SIM_CONTROL_H
#define BELOTE_SIM_CONTROL_H

#include <stddef.h>

#include "sim.h"

struct control {
    int listener, client;   /* -1 when none */
    char buf[4096];
    size_t len;
};

int control_open(struct control *c, const char *path);   /* 0, or -1 */
/* Commands waiting on the socket, applied now; returns 1 on "end". */
int control_poll(struct control *c, struct sim *s);

#endif
