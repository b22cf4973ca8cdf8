/* The firmware core (table.c) on the host, as a process: stdin/stdout are its
 * serial port, simulated readers are driven by a script. The Python tests put
 * it on the master side of a pty and let the real host bridge talk to it, so
 * the C framing, SEQ handling, SNAP and HB meet the Python session for real.
 *
 *   table_sim ANTS SCRIPT
 *   SCRIPT lines, at <ms> since start:
 *     "<ms> put <antenna> <tag id 0-255>" | "<ms> lift <antenna> <id>"
 *     "<ms> stall <duration ms>"   the host stops reading: nothing leaves the txq meanwhile
 *     "<ms> reset"                 a watchdog reset: new boot id, SEQ from 0
 *     "<ms> end"
 *
 * POSIX only (the test harness, not the firmware). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include "../table.h"

struct reader { uint8_t present[256], halted[256], ready[256], active; int field_on; };

static int r_init(void *c) { struct reader *r = c; r->field_on = 1; memset(r->halted, 0, 256); return 1; }
static int r_field(void *c, int on) { struct reader *r = c; r->field_on = on; if (!on) memset(r->halted, 0, 256); return 1; }
static int r_answer(struct reader *r, int wake)
{
    int any = 0;
    for (int i = 0; i < 256; i++) {
        r->ready[i] = r->present[i] && r->field_on && (wake || !r->halted[i]);
        any |= r->ready[i];
    }
    return any;
}
static int r_wupa(void *c) { return r_answer(c, 1); }
static int r_reqa(void *c) { return r_answer(c, 0); }
static int r_select(void *c, uint8_t *uid, uint8_t *len)
{
    struct reader *r = c;
    for (int i = 0; i < 256; i++) {
        if (r->ready[i]) {
            uint8_t u[7] = {0x04, 0xB7, 0xE1, 0x00, 0x00, 0x00, (uint8_t)i};
            memcpy(uid, u, 7);
            *len = 7;
            r->active = (uint8_t)i;
            memset(r->ready, 0, 256);
            return 1;
        }
    }
    return 0;
}
static int r_halt(void *c) { struct reader *r = c; r->halted[r->active] = 1; return 1; }
static const struct reader_ops OPS = {r_init, r_field, r_wupa, r_reqa, r_select, r_halt};

static uint32_t millis(void)
{
    static struct timespec t0;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (!t0.tv_sec && !t0.tv_nsec)
        t0 = t;
    return (uint32_t)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s ANTS SCRIPT\n", argv[0]);
        return 2;
    }
    FILE *script = fopen(argv[2], "r");
    if (!script) {
        perror(argv[2]);
        return 2;
    }
    static struct reader readers[MAX_ANTENNAS];
    static void *ctx[MAX_ANTENNAS];
    for (int i = 0; i < MAX_ANTENNAS; i++)
        ctx[i] = &readers[i];
    static struct txq tx;
    static struct table table;
    txq_init(&tx);
    struct table_config cfg = {(uint8_t)atoi(argv[1]), 2, 2, 200, 2000};
    table_init(&table, &cfg, &OPS, ctx, &tx, 0xC0FFEE01u, millis());
    long at = 0;
    char text[128], what[16];
    int a = 0, b = 0, have = 0;
    uint32_t stalled_until = 0;
    for (;;) {
        uint32_t now = millis();
        while (!have && fgets(text, sizeof text, script))
            have = sscanf(text, "%ld %15s %d %d", &at, what, &a, &b) >= 2;
        while (have && now >= (uint32_t)at) {
            if (strcmp(what, "end") == 0)
                return 0;
            if (strcmp(what, "put") == 0 || strcmp(what, "lift") == 0)
                readers[a].present[b & 255] = strcmp(what, "put") == 0;
            else if (strcmp(what, "stall") == 0)
                stalled_until = now + (uint32_t)a;
            else if (strcmp(what, "reset") == 0)
                table.reset_asked = 1;
            have = 0;
            while (!have && fgets(text, sizeof text, script))
                have = sscanf(text, "%ld %15s %d %d", &at, what, &a, &b) >= 2;
        }
        table_poll(&table, now);
        const uint8_t *p;
        size_t n;
        while ((int32_t)(now - stalled_until) >= 0 && (n = txq_peek(&tx, &p)) > 0) {   /* like a USB CDC endpoint */
            ssize_t w = write(STDOUT_FILENO, p, n);
            if (w <= 0)
                break;
            txq_consume(&tx, (size_t)w);
        }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(STDIN_FILENO, &fds);
        struct timeval tv = {0, 1000};
        if (select(STDIN_FILENO + 1, &fds, NULL, NULL, &tv) > 0) {
            uint8_t buf[256];
            ssize_t r = read(STDIN_FILENO, buf, sizeof buf);
            if (r > 0)
                table_rx(&table, buf, (size_t)r, millis());
            else if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
                nanosleep(&(struct timespec){0, 1000000}, NULL);   /* host closed its end: keep scanning */
        }
        if (table.reset_asked) {   /* a reboot: RAM, the queue with it, is lost */
            txq_init(&tx);
            table_init(&table, &cfg, &OPS, ctx, &tx, table.boot_id + 1, millis());
        }
    }
}
