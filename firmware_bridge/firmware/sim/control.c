/* See control.h. */
#define _GNU_SOURCE
#include "control.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "scenario.h"

int control_open(struct control *c, const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path)
        return -1;
    strcpy(addr.sun_path, path);
    unlink(path);
    c->listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    c->client = -1;
    return c->listener < 0 || bind(c->listener, (struct sockaddr *)&addr, sizeof addr) < 0 ||
                   listen(c->listener, 1) < 0 ? -1 : 0;
}

int control_poll(struct control *c, struct sim *s)
{
    if (c->listener < 0)
        return 0;
    if (c->client < 0) {
        c->client = accept4(c->listener, NULL, NULL, SOCK_NONBLOCK);
        c->len = 0;
        if (c->client < 0)
            return 0;
    }
    ssize_t n = read(c->client, c->buf + c->len, sizeof c->buf - c->len - 1);
    if (n == 0 || (n < 0 && errno != EAGAIN)) {
        close(c->client);
        c->client = -1;
        return 0;
    }
    if (n > 0)
        c->len += (size_t)n;
    char *nl;
    while ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
        *nl = '\0';
        char reply[600];
        enum scenario_result r = scenario_apply(s, c->buf, reply, sizeof reply);
        size_t used = (size_t)(nl + 1 - c->buf);
        memmove(c->buf, nl + 1, c->len - used);
        c->len -= used;
        strcat(reply, "\n");
        if (write(c->client, reply, strlen(reply)) < 0)
            return 0;
        if (r == SCENARIO_END)
            return 1;
    }
    return 0;
}
