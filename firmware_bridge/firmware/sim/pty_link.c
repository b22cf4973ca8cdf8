/* See pty_link.h. */
#define _GNU_SOURCE
#include "pty_link.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int pty_link_plug(struct pty_link *l)
{
    struct termios raw;
    if (openpty(&l->master, &l->slave, NULL, NULL, NULL) < 0)
        return -1;
    tcgetattr(l->slave, &raw);
    cfmakeraw(&raw);   /* no echo, no CR/LF translation: a USB CDC port is raw */
    tcsetattr(l->slave, TCSANOW, &raw);
    fcntl(l->master, F_SETFL, fcntl(l->master, F_GETFL) | O_NONBLOCK);
    char tmp[sizeof l->path + 8];
    snprintf(tmp, sizeof tmp, "%s.new", l->path);
    unlink(tmp);
    if (symlink(ttyname(l->slave), tmp) < 0 || rename(tmp, l->path) < 0)
        return -1;
    l->out_len = 0;
    l->dropping = l->line_pos = 0;
    return 0;
}

void pty_link_unplug(struct pty_link *l)
{
    if (l->master < 0)
        return;
    close(l->master);
    close(l->slave);
    l->master = l->slave = -1;
    unlink(l->path);
}

void pty_link_from_device(struct pty_link *l, uint8_t byte)
{
    if (l->line_pos == 0) {   /* a line starts: is it one the cable loses? */
        l->dropping = l->drop > 0;
        if (l->dropping) {
            l->drop--;
            l->lines_dropped++;
        }
    }
    l->line_pos = byte == '\n' ? 0 : l->line_pos + 1;
    if (l->dropping)
        return;
    if (l->line_pos == 10 && l->corrupt > 0) {   /* inside the header: the CRC will not match */
        l->corrupt--;
        l->lines_corrupted++;
        byte ^= 0x01;
    }
    if (l->master < 0 || l->out_len >= sizeof l->out) {
        l->lost_bytes++;
        return;
    }
    l->out[l->out_len++] = byte;
}

void pty_link_flush(struct pty_link *l)
{
    if (l->master < 0 || !l->out_len)
        return;
    ssize_t n = write(l->master, l->out, l->out_len);
    if (n > 0) {
        memmove(l->out, l->out + n, l->out_len - (size_t)n);
        l->out_len -= (size_t)n;
    }
}

size_t pty_link_from_host(struct pty_link *l, uint8_t *buf, size_t max, int *stale_fired)
{
    *stale_fired = 0;
    if (l->master < 0)
        return 0;
    ssize_t n = read(l->master, buf, max);
    if (n <= 0)
        return 0;   /* nothing, or the host has the port closed (EIO) */
    if (l->stale_armed) {
        /* the port was opened: DTR resets the board and its USB bridge sends what it
         * still held from the last session; the host's first command is lost */
        l->stale_armed = 0;
        l->out_len = 0;
        memcpy(l->out, l->stale, l->stale_len);
        l->out_len = l->stale_len;
        l->line_pos = 0;
        *stale_fired = 1;
        return 0;
    }
    return (size_t)n;
}
